import type { GatewayClient, GatewayConfig } from './client'
import { AllModelsFailedError, GatewayError, redactKeys } from './errors'

export type FallbackModeSettings = {
  /** ENABLE_AI === 'true', computed by the caller. */
  enabled: boolean
  /** A shared client (keeps the in-flight limit across calls) or settings to build one. */
  gateway?: GatewayClient | GatewayConfig
  /** The model chain for this call; empty or absent → the client's configured chain. */
  models?: readonly string[]
  /** Sees the full error (for the log); the result only carries a short reason. */
  onError?: (error: unknown) => void
}

export const MANUAL_ENTRY_MESSAGE = 'Please enter the content manually.'
export const AI_DISABLED_MESSAGE = `AI generation is turned off. ${MANUAL_ENTRY_MESSAGE}`

// Room for a reason per model of a chain of a handful.
const MAX_REASON_LENGTH = 600

/** A short reason fit for an editor's screen: no key, no stack, bounded length. */
export function describeFailure(error: unknown): string {
  let reason: string
  if (error instanceof AllModelsFailedError) reason = `all AI models failed: ${error.reasons}`
  else if (error instanceof GatewayError) reason = error.reason
  else if (error instanceof TypeError) reason = 'the AI gateway is misconfigured'
  else reason = 'unexpected error'
  reason = redactKeys(reason)
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason
}

export const failureMessage = (error: unknown) => `AI generation failed (${describeFailure(error)}). ${MANUAL_ENTRY_MESSAGE}`
