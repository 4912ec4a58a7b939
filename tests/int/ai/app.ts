import type { Payload } from 'payload'

import { authHeaders } from '../../helpers/accounts'
import { startHttpServer } from '../helpers/http'
import { startPayload } from '../helpers/payload'

export const GATEWAY_KEY = 'sk-or-v1-integration-test-key'
export const GATEWAY_MODEL = 'openai/gpt-4o-mini'

export type AiEnvironment = {
  /** ENABLE_AI as the process sees it; undefined = unset. */
  enableAi: string | undefined
  gatewayUrl?: string
  brokerUrl?: string
  /** GATEWAY_FALLBACK_MODELS (none by default). */
  fallbackModels?: string
  /** GATEWAY_SITE_URL; '' leaves it unset (the referer is then PUBLIC_SERVER_URL). */
  siteUrl?: string
  apiKey?: string
}

/**
 * Payload on the test database behind a real HTTP server with the AI routes (and the layer
 * features route). The config and env() read the environment on first import, so it is set first.
 */
export async function startAiApp({ enableAi, gatewayUrl, brokerUrl, fallbackModels = '', siteUrl = 'https://dashboard.example.org', apiKey = GATEWAY_KEY }: AiEnvironment) {
  if (enableAi === undefined) delete process.env.ENABLE_AI
  else process.env.ENABLE_AI = enableAi
  Object.assign(process.env, {
    GATEWAY_URL: gatewayUrl ?? 'http://127.0.0.1:9',
    GATEWAY_API_KEY: apiKey,
    GATEWAY_MODEL,
    GATEWAY_FALLBACK_MODELS: fallbackModels,
    GATEWAY_SITE_URL: siteUrl,
    GATEWAY_APP_NAME: 'City Dashboard Tests',
    NGSI_LD_BROKER_URL: brokerUrl ?? 'http://127.0.0.1:9',
    NGSI_LD_TENANT: '',
    // The test client stands for one reverse proxy: its X-Forwarded-For names the client.
    TRUST_PROXY: '1',
  })
  const { payload, config } = await startPayload()
  const server = await startHttpServer(
    config,
    {
      '/api/ai/generate': (await import('@/app/api/ai/generate/route')).POST,
      '/api/questions/ask': (await import('@/app/api/questions/ask/route')).POST,
      '/api/ai/gateway-test': (await import('@/app/api/ai/gateway-test/route')).POST,
    },
    { '/api/layers/:id/features': (await import('@/pages/api/layers/[id]/features')).default },
  )
  return { payload, baseUrl: server.url, close: server.close }
}

export type Caller = { token?: string | null; ip?: string }

/** A JSON request as a browser would send it; `caller.ip` stands for the client's address. */
export function callJson(baseUrl: string, method: string, path: string, body?: unknown, caller: Caller = {}) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...authHeaders(caller.token ?? null),
      ...(caller.ip ? { 'x-forwarded-for': caller.ip } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** The two demo cities of the demo broker, as Site settings lists them. */
export async function configureCities(payload: Payload) {
  await payload.updateGlobal({
    slug: 'site-settings',
    data: {
      cities: [
        { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 },
        { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13 },
      ],
    },
  })
}

/** The plain text of a Lexical state, one line per block, to compare post contents. */
export function plainText(node: unknown): string {
  if (!node || typeof node !== 'object') return ''
  const { type, text, children, root } = node as { type?: unknown; text?: unknown; children?: unknown; root?: unknown }
  if (typeof text === 'string') return text
  if (root) return plainText(root)
  return Array.isArray(children) ? children.map(plainText).join(type === 'root' ? '\n' : '') : ''
}
