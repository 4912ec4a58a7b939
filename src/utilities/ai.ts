import type { Payload } from 'payload'

import { describeFailure, GatewayClient, type AiTaskName, type FallbackModeSettings } from '@/ai'
import { env } from '@/env'
import type { SiteSetting } from '@/payload-types'

let client: GatewayClient | undefined

/** One client per process, so its limit of requests in flight holds across all requests. */
function gatewayClient(): GatewayClient {
  const settings = env()
  client ??= new GatewayClient({
    url: settings.GATEWAY_URL,
    apiKey: settings.GATEWAY_API_KEY,
    model: settings.GATEWAY_MODEL,
    siteUrl: settings.GATEWAY_SITE_URL,
    appName: settings.GATEWAY_APP_NAME,
  })
  return client
}

/** Admins switch tasks off in Site settings; a task the settings do not mention stays on. */
async function taskEnabledInSiteSettings(payload: Payload, task: AiTaskName): Promise<boolean> {
  const settings = (await payload.findGlobal({ slug: 'site-settings', depth: 0 })) as SiteSetting
  return settings.ai?.[task] !== false
}

/** What runAiTask needs: on only with ENABLE_AI=true and the task allowed in Site settings. */
export async function aiSettingsFor(payload: Payload, task: AiTaskName): Promise<FallbackModeSettings> {
  const enabled = env().ENABLE_AI && (await taskEnabledInSiteSettings(payload, task))
  return {
    enabled,
    gateway: enabled ? gatewayClient() : undefined,
    onError: (error) => payload.logger.warn(`AI task ${task} fell back to manual entry: ${describeFailure(error)}`),
  }
}
