import { randomUUID } from 'node:crypto'

import { ZodError } from 'zod'

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

export const jsonError = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers: { 'Cache-Control': 'no-store', ...headers } })

// redirect() and notFound() work by throwing errors Next.js must see again.
const isNextControlFlow = (error: unknown) =>
  typeof (error as { digest?: unknown })?.digest === 'string' && (error as { digest: string }).digest.startsWith('NEXT_')

const describeZodError = (error: ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')

/**
 * The answer to a failure: JSON `{error}`, 4xx for bad input and refusals, 500 with a reference
 * (details go to the log, never a stack to the caller) for the unexpected. Next.js control flow is rethrown.
 */
export function errorResponse(error: unknown, request: { method?: string; url?: string }): Response {
  if (isNextControlFlow(error)) throw error
  if (error instanceof HttpError) return jsonError(error.status, error.message, error.headers)
  if (error instanceof ZodError) return jsonError(400, describeZodError(error))
  const reference = randomUUID().slice(0, 8)
  const path = request.url ? new URL(request.url, 'http://localhost').pathname : ''
  console.error(`[${reference}] ${request.method} ${path} failed:`, error)
  return jsonError(500, `Internal server error (reference ${reference})`)
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
