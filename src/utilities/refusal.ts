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

/** Payload's REST error answers get the project's shape beside theirs: `{errors, error, requestId}`. */
export const addRequestIdToError: AfterErrorHook = ({ result }) => {
  const requestId = currentRequestId()
  if (!result || !requestId) return
  return { response: { ...result, error: result.errors?.[0]?.message ?? 'Request failed', requestId } }
}
