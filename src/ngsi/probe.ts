// Is the broker up, and which version? Each broker has its own endpoint (Orion-LD /version,
// Scorpio /q/health, Stellio /actuator/health), so try them in turn with a short timeout.
// Never throws: a health check needs an answer, and a short one (it may be shown publicly).

import { parseJsonBytes } from './json'
import type { BrokerAnswer, BrokerTransport } from './transport'

export interface ProbeResult {
  ok: boolean
  latencyMs: number
  version?: string
  endpoint?: string
  error?: string
}

export interface ProbeConfig {
  transport: BrokerTransport
  /** Broker root URL (without /ngsi-ld/v1). */
  rootUrl: string
  authToken?: string
  timeoutMs: number
}

export const PROBE_ENDPOINTS = ['/version', '/ngsi-ld/v1/info/sourceIdentity', '/q/health', '/actuator/health'] as const

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value)

function versionOf(body: JsonObject): string | undefined {
  const nested = (key: string) => (isObject(body[key]) ? (body[key] as JsonObject) : {})
  const candidates = [body['orionld version'], body.version, nested('orion').version, nested('contextSourceExtras').version, nested('build').version]
  return candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '')?.trim()
}

/** A reason without hosts or ports. */
function networkReason(error: unknown): string {
  const { code: ownCode, cause } = error as { code?: string; cause?: { code?: string } }
  const code = cause?.code ?? ownCode ?? ''
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'connection closed'
  return 'network error'
}

type Attempt = { ok: true; version?: string } | { ok: false; error: string; fatal: boolean; notFound?: boolean }

async function tryEndpoint(config: ProbeConfig, path: string): Promise<Attempt> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (config.authToken) headers.Authorization = `Bearer ${config.authToken}`
  const timeout = AbortSignal.timeout(config.timeoutMs)
  let response: BrokerAnswer
  try {
    response = await config.transport(`${config.rootUrl}${path}`, { headers, signal: timeout })
  } catch (error) {
    // No point asking another path of a broker that cannot be reached.
    return { ok: false, error: timeout.aborted ? 'timeout' : networkReason(error), fatal: true }
  }
  let body: unknown
  try {
    if (response.status < 200 || response.status >= 300) return { ok: false, error: `HTTP ${response.status}`, fatal: false, notFound: response.status === 404 || response.status === 405 }
    body = parseJsonBytes(response.body)
  } catch {
    return { ok: false, error: 'invalid response', fatal: false }
  } finally {
    response.release?.()
  }
  if (!isObject(body)) return { ok: false, error: 'invalid response', fatal: false }
  if (typeof body.status === 'string' && body.status.toUpperCase() === 'DOWN') return { ok: false, error: 'broker reports DOWN', fatal: false }
  return { ok: true, version: versionOf(body) }
}

export async function probeBroker(config: ProbeConfig): Promise<ProbeResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  let reason: string | undefined
  for (const endpoint of PROBE_ENDPOINTS) {
    const attempt = await tryEndpoint(config, endpoint)
    if (attempt.ok) return { ok: true, latencyMs: elapsed(), endpoint, ...(attempt.version && { version: attempt.version }) }
    // A 404 only says this is another broker; any other failure is the news worth reporting.
    if (!attempt.notFound) reason ??= attempt.error
    if (attempt.fatal) break
  }
  return { ok: false, latencyMs: elapsed(), error: reason ?? 'no version or health endpoint found' }
}
