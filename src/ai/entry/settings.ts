import type { Payload } from 'payload'

import { API_KEY_PREFIX, describeFailure, parseModelList, type AiTaskName, type FallbackModeSettings } from '@/ai/server'
import { env, type Env } from '@/env'
import type { SiteSetting } from '@/payload-types'
import { gatewayClient } from './services'
import { readGlobal } from '@/site/globals'

/**
 * What is wrong with the gateway key, for the start-up log and Site settings → AI; undefined when
 * AI is off or the key looks right. Generation answers manual mode without a request meanwhile.
 */
export function gatewayKeyWarning(settings: Pick<Env, 'ENABLE_AI' | 'GATEWAY_API_KEY'> = env()): string | undefined {
  if (!settings.ENABLE_AI) return undefined
  if (!settings.GATEWAY_API_KEY) return 'GATEWAY_API_KEY is not set: the AI helper answers in manual mode.'
  if (!settings.GATEWAY_API_KEY.startsWith(API_KEY_PREFIX)) {
    return `GATEWAY_API_KEY does not start with "${API_KEY_PREFIX}": it is not a gateway key, and the AI helper answers in manual mode without calling the gateway.`
  }
  return undefined
}

/**
 * The model chain: GATEWAY_MODEL, then Site settings → AI → fallback models when filled in,
 * else GATEWAY_FALLBACK_MODELS. The field is validated on save; an entry that is not a model id
 * anyway (written around the admin) is left out.
 */
export function modelChainFor(siteSettings: Pick<SiteSetting, 'ai'>): string[] {
  const override = parseModelList(siteSettings.ai?.fallbackModels).models
  const [first] = gatewayClient().models
  return override.length > 0 ? [first, ...override] : [...gatewayClient().models]
}

// Admins switch tasks off in Site settings; a task the settings do not mention stays on.
const taskOn = (siteSettings: Pick<SiteSetting, 'ai'>, task: AiTaskName) => env().ENABLE_AI && siteSettings.ai?.[task] !== false

/** Whether the AI helper drafts `task`: what decides if editors see its buttons and hints at all. */
export async function aiTaskEnabled(payload: Payload, task: AiTaskName): Promise<boolean> {
  return env().ENABLE_AI && taskOn(await readGlobal(payload, 'site-settings'), task)
}

/** What runAiTask needs: on only with ENABLE_AI=true and the task allowed in Site settings. */
export async function aiSettingsFor(payload: Payload, task: AiTaskName): Promise<FallbackModeSettings> {
  const siteSettings = await readGlobal(payload, 'site-settings')
  const enabled = taskOn(siteSettings, task)
  return {
    enabled,
    gateway: enabled ? gatewayClient() : undefined,
    models: enabled ? modelChainFor(siteSettings) : undefined,
    onError: (error) => payload.logger.warn(`AI task ${task} fell back to manual entry: ${describeFailure(error)}`),
  }
}
