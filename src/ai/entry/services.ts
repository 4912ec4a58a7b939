import { env } from '@/env'
import { processWide } from '@/server/services'

import { GatewayClient } from '../server/gateway'

/** One gateway client per process, so its limit of requests in flight holds across all requests. */
export function gatewayClient(): GatewayClient {
  return processWide('ai.gateway', () => {
    const settings = env()
    return new GatewayClient({
      url: settings.GATEWAY_URL,
      apiKey: settings.GATEWAY_API_KEY,
      model: settings.GATEWAY_MODEL,
      fallbackModels: settings.GATEWAY_FALLBACK_MODELS,
      // The gateway attributes requests to the site: the public address unless another is set.
      siteUrl: settings.GATEWAY_SITE_URL ?? settings.PUBLIC_SERVER_URL,
      appName: settings.GATEWAY_APP_NAME,
    })
  })
}
