import { GatewayClient, type GatewayConfig, type GenerateTextRequest } from './client'
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

export type FallbackModeResult =
  | { mode: 'ai'; content: string; model: string; message?: undefined }
  | { mode: 'manual'; content: ''; message: string; model?: undefined }

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

export const manualResult = (message: string): FallbackModeResult => ({ mode: 'manual', content: '', message })

export const failureMessage = (error: unknown) => `AI generation failed (${describeFailure(error)}). ${MANUAL_ENTRY_MESSAGE}`

/**
 * Generates when AI is on and the gateway answers; otherwise returns empty content in
 * "manual" mode with a message asking the editor to write it. Never throws for gateway trouble.
 */
export async function generateWithFallbackMode(
  settings: FallbackModeSettings,
  request: GenerateTextRequest,
): Promise<FallbackModeResult> {
  if (!settings.enabled) return manualResult(AI_DISABLED_MESSAGE)
  try {
    if (!settings.gateway) throw new GatewayError({ code: 'missing_key', reason: 'the AI gateway is not configured' })
    const client = settings.gateway instanceof GatewayClient ? settings.gateway : new GatewayClient(settings.gateway)
    const result = await client.generate(request, settings.models)
    return { mode: 'ai', content: result.content, model: result.model }
  } catch (error) {
    settings.onError?.(error)
    return manualResult(failureMessage(error))
  }
}
