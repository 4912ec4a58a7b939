import { type AfterErrorHook, APIError } from 'payload'

import { currentRequest, currentRequestId } from '@/server/requestContext'

import { malformedRequestReason } from './malformedRequest'

/**
 * A request Payload refuses on purpose (a workflow rule, bad input): answered with its status
 * and message, logged at info without a stack (payload.config.ts `loggingLevels`), unlike a fault.
 */
export class Refusal extends APIError {
  constructor(message: string, status = 400) {
    super(message, status, undefined, true)
    // Set by hand: minified bundles rename classes, and Payload picks the log level by this name.
    this.name = 'Refusal'
  }
}

/** Payload's own refusals plus ours: logged at info, message only. */
export const REFUSAL_LOGGING_LEVELS = {
  Refusal: 'info',
  AuthenticationError: 'info',
  LockedAuth: 'info',
  UnauthorizedError: 'info',
  UnverifiedEmail: 'info',
  QueryError: 'info',
} as const

type LogCall = (...args: unknown[]) => void

/**
 * The refusal an error stands for, if it is one: a refusal named above, or a GraphQL error that
 * wraps a client error (Payload's GraphQL handler logs every error of a GraphQL answer at error
 * level, whatever it wraps: a 403, a 429, a wrong password) or wraps nothing (the document failed
 * to parse or validate, the complexity cap included).
 */
function refusalOf(err: Error): Error | undefined {
  if (Object.hasOwn(REFUSAL_LOGGING_LEVELS, err.name) || isClientStatus(err)) return err
  const unread = unreadableRequest(err)
  if (unread) return unread
  if (err.name !== 'GraphQLError') return undefined
  const original = (err as { originalError?: unknown }).originalError
  if (!(original instanceof Error)) return err
  const status = (original as { status?: unknown }).status
  return Object.hasOwn(REFUSAL_LOGGING_LEVELS, original.name) || (typeof status === 'number' && status >= 400 && status < 500) ? original : undefined
}

/**
 * Payload's APIError (and its kin, which carry `isPublic`) with a 4xx status: "Missing ID of
 * version.", "Token is either invalid or has expired.". Told apart by shape, not class: the
 * bundles may hold more than one copy of Payload's classes.
 */
const isClientStatus = (err: Error) => {
  const { status, isPublic } = err as { status?: unknown; isPublic?: unknown }
  return typeof isPublic === 'boolean' && typeof status === 'number' && status >= 400 && status < 500
}

/**
 * A request Payload could not read (a `where` that is not JSON, a broken multipart form), which
 * Payload logs before malformedRequestIs400 answers 400: the request being handled says so.
 */
function unreadableRequest(err: Error): Error | undefined {
  const request = currentRequest()
  if (!request?.target) return undefined
  const url = new URL(request.target, 'http://localhost')
  const reason = malformedRequestReason(err, { query: Object.fromEntries(url.searchParams), headers: new Headers(request.contentType ? { 'content-type': request.contentType } : {}) })
  return reason ? new Refusal(reason) : undefined
}

/**
 * A logger hook (pino's `logMethod`) for the places that log a caught error themselves instead of
 * going through `loggingLevels`: Payload's admin server functions log whatever they catch at error
 * level with its stack, so an anonymous visitor of the sign-up screen (its form state refused with
 * UnauthorizedError) wrote a stack trace per visit, and its GraphQL handler does the same for every
 * refused query. A refusal (refusalOf) is logged at info, message only.
 */
export function quietRefusals(this: { info: LogCall }, args: unknown[], method: LogCall, level: number): void {
  const [first, ...rest] = args
  const err = first && typeof first === 'object' ? (first as { err?: unknown }).err : undefined
  const refusal = level >= 50 && err instanceof Error ? refusalOf(err) : undefined
  if (refusal) {
    const { err: _err, msg, ...fields } = first as { err: Error; msg?: unknown }
    const text = typeof rest[0] === 'string' ? rest[0] : typeof msg === 'string' ? msg : undefined
    this.info({ ...fields, refusal: refusal.name }, `${text ? `${text}: ` : ''}${refusal.message}`)
    return
  }
  method.apply(this, args)
}

/** Payload's REST error answers get the project's shape beside theirs: `{errors, error, requestId}`. */
export const addRequestIdToError: AfterErrorHook = ({ result }) => {
  const requestId = currentRequestId()
  if (!result || !requestId) return
  return { response: { ...result, error: result.errors?.[0]?.message ?? 'Request failed', requestId } }
}
