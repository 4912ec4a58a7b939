import { type AfterErrorHook, APIError } from 'payload'

import { currentRequestId } from '@/http/requestContext'

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
 * A logger hook (pino's `logMethod`) for the places that log a caught error themselves instead of
 * going through `loggingLevels`: Payload's admin server functions log whatever they catch at error
 * level with its stack, so an anonymous visitor of the sign-up screen (its form state refused with
 * UnauthorizedError) wrote a stack trace per visit. A refusal named above is logged at info, message only.
 */
export function quietRefusals(this: { info: LogCall }, args: unknown[], method: LogCall, level: number): void {
  const [first, ...rest] = args
  const err = first && typeof first === 'object' ? (first as { err?: unknown }).err : undefined
  if (level >= 50 && err instanceof Error && Object.hasOwn(REFUSAL_LOGGING_LEVELS, err.name)) {
    const { err: _err, msg, ...fields } = first as { err: Error; msg?: unknown }
    const text = typeof rest[0] === 'string' ? rest[0] : typeof msg === 'string' ? msg : undefined
    this.info({ ...fields, refusal: err.name }, `${text ? `${text}: ` : ''}${err.message}`)
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
