import type { Payload } from 'payload'

import { type FakeGateway, type FakeGatewayOptions, startFakeGateway } from '../../fakes/gateway'
import { authHeaders } from '../../helpers/accounts'
import { no2AlertLayer } from '../../helpers/layers'
import { closedOnce, type PayloadApi, type PayloadApiOptions, startPayloadApi, TEST_CITIES } from '../helpers/payload'

export const GATEWAY_KEY = 'sk-or-v1-integration-test-key'
export const GATEWAY_MODEL = 'openai/gpt-4o-mini'

export type AiEnvironment = Pick<PayloadApiOptions, 'roles'> & {
  /** ENABLE_AI as the process sees it; undefined = unset. */
  enableAi: string | undefined
  /** The fake gateway started here as GATEWAY_URL (`gateway`): by default one that takes GATEWAY_KEY only. */
  gateway?: FakeGatewayOptions
  /** The city data answers are drafted from: a demo broker (Orion-LD) and its two cities in Site settings. */
  cityData?: boolean
  /** GATEWAY_FALLBACK_MODELS (none by default). */
  fallbackModels?: string
  /** GATEWAY_SITE_URL; '' leaves it unset (the referer is then PUBLIC_SERVER_URL). */
  siteUrl?: string
  apiKey?: string
}

export type AiApp = PayloadApi & { gateway: FakeGateway }

/**
 * Payload on the test database behind a real HTTP server with the AI routes (and the layer features
 * route), the model gateway a fake one started here; `roles` as startPayloadApi's.
 */
export async function startAiApp(environment: AiEnvironment): Promise<AiApp> {
  const {
    enableAi,
    gateway: gatewayOptions = { validKeys: [GATEWAY_KEY] },
    cityData = false,
    fallbackModels = '',
    siteUrl = 'https://dashboard.example.org',
    apiKey = GATEWAY_KEY,
  } = environment
  const gateway = closedOnce(await startFakeGateway(gatewayOptions))
  const app = await startPayloadApi({
    ...(cityData && { broker: { flavor: 'orion-ld' }, site: { cities: TEST_CITIES } }),
    roles: environment.roles,
    env: {
      ENABLE_AI: enableAi,
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: apiKey,
      GATEWAY_MODEL,
      GATEWAY_FALLBACK_MODELS: fallbackModels,
      GATEWAY_SITE_URL: siteUrl,
      GATEWAY_APP_NAME: 'City Dashboard Tests',
      // The test client stands for one reverse proxy: its X-Forwarded-For names the client.
      TRUST_PROXY: '1',
    },
    routes: ['/api/ai/generate', '/api/questions/ask', '/api/ai/gateway-test', '/api/layers/:id/features'],
  })
  const closeApp = app.close
  return Object.assign(app, {
    gateway,
    async close() {
      await closeApp()
      await gateway.close()
    },
  })
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

/** A layer of the demo broker's air quality stations whose one rule fires at every station (NO₂ above 0). */
export const createFiringAirLayer = (payload: Payload, name: string) =>
  payload.create({ collection: 'map-layers', data: { ...no2AlertLayer(name, 0, 'NO2 at {value}'), attributes: ['no2'], refreshSeconds: 60 } })

/** The plain text of a Lexical state, one line per block, to compare post contents. */
export function plainText(node: unknown): string {
  if (!node || typeof node !== 'object') return ''
  const { type, text, children, root } = node as { type?: unknown; text?: unknown; children?: unknown; root?: unknown }
  if (typeof text === 'string') return text
  if (root) return plainText(root)
  return Array.isArray(children) ? children.map(plainText).join(type === 'root' ? '\n' : '') : ''
}
