import { randomUUID } from 'node:crypto'

import { ZodError } from 'zod'

import { UpstreamError } from '@/upstreams/errors'

import { currentRequestId, requestIdOf } from './requestContext'

/** An error whose message is safe to show the caller, with the HTTP status to answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/** An error answer: `{error, requestId}`, the id also in X-Request-Id, never cached. */
export function jsonError(status: number, error: string, headers: Record<string, string> = {}, requestId = currentRequestId()) {
  return Response.json(
    { error, ...(requestId ? { requestId } : {}) },
    { status, headers: { 'Cache-Control': 'no-store', ...(requestId ? { 'X-Request-Id': requestId } : {}), ...headers } },
  )
}

// The raw setting, not env(): error answers must work where the full settings are not parsed (unit tests, start-up).
const logsInfo = () => ['info', 'debug'].includes(process.env.LOG_LEVEL?.trim() || 'info')

// redirect() and notFound() work by throwing errors Next.js must see again.
const isNextControlFlow = (error: unknown) =>
  typeof (error as { digest?: unknown })?.digest === 'string' && (error as { digest: string }).digest.startsWith('NEXT_')

const describeZodError = (error: ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')

/**
 * The answer to a failure: JSON `{error}`, 4xx for bad input and refusals, 500 with a reference
 * (details go to the log, never a stack to the caller) for the unexpected. Next.js control flow is rethrown.
 */
export function errorResponse(error: unknown, request: { method?: string; url?: string; headers?: Headers }): Response {
  if (isNextControlFlow(error)) throw error
  const requestId = (request.headers instanceof Headers ? requestIdOf(request.headers) : currentRequestId()) ?? randomUUID()
  const path = request.url ? new URL(request.url, 'http://localhost').pathname : ''
  // Expected refusals: one line at info, no stack; real faults below keep theirs.
  const refuse = (status: number, message: string, headers?: Record<string, string>) => {
    if (logsInfo()) console.info(`[${requestId}] ${request.method} ${path} refused ${status}: ${message}`)
    return jsonError(status, message, headers, requestId)
  }
  if (error instanceof HttpError) return refuse(error.status, error.message, error.headers)
  if (error instanceof UpstreamError) {
    return refuse(error.status, error.message, error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) })
  }
  if (error instanceof ZodError) return refuse(400, describeZodError(error))
  console.error(`[${requestId}] ${request.method} ${path} failed:`, error)
  return jsonError(500, `Internal server error (reference ${requestId})`, {}, requestId)
}

/** Wraps a route handler so every failure answers as `errorResponse` says. */
export function withErrorHandling<Req extends { method?: string; url?: string }, Args extends unknown[]>(
  handler: (request: Req, ...args: Args) => Promise<Response>,
): (request: Req, ...args: Args) => Promise<Response> {
  return async (request, ...args) => {
    try {
      return await handler(request, ...args)
    } catch (error) {
      return errorResponse(error, request)
    }
  }
}
