import { UpstreamError, type UpstreamService } from './errors'
import { parseRetryAfter, readTextAtMost, send, startDeadline, statusClass, type FetchLike } from './outbound'

/** The weather and geocoding clients' use of the outbound helper: their time and size limits, status mapping, no key leaks. */

export const DEFAULT_TIMEOUT_MS = 5_000
/** Largest upstream body read; bigger answers are refused as bad responses. */
export const MAX_RESPONSE_BYTES = 512 * 1024
/** Bounds of the Retry-After passed on to the caller, in seconds. */
const RETRY_AFTER_SECONDS = { min: 1, max: 3600 }

/** The base URL joined with a path, or undefined when it is not an http(s) URL. */
export function endpoint(baseUrl: string, path: string): URL | undefined {
  try {
    const base = new URL(baseUrl.trim())
    if (base.protocol !== 'http:' && base.protocol !== 'https:') return undefined
    if (base.username || base.password) return undefined
    base.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`
    base.search = ''
    base.hash = ''
    return base
  } catch {
    return undefined
  }
}

type UpstreamAnswer = { status: number; headers: Headers; json: unknown; jsonOk: boolean }

/**
 * GETs `url` and returns its status and parsed JSON. Throws UpstreamError for a timeout (the whole
 * exchange, body included, must finish within timeoutMs), an unreachable host, a redirect (the key
 * is in the query: never carried elsewhere) or an oversized body. Nothing of the URL (which
 * carries the key) or of a low-level error goes into what is thrown.
 */
async function getJson(
  service: UpstreamService,
  url: URL,
  options: { fetch?: FetchLike; timeoutMs?: number; signal?: AbortSignal; maxBytes?: number },
): Promise<UpstreamAnswer> {
  const deadline = startDeadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal)
  let response: Response
  try {
    response = await send(url, { headers: { accept: 'application/json' }, signal: deadline.signal, fetch: options.fetch })
  } catch {
    throw new UpstreamError(service, deadline.expired ? 'timeout' : 'unreachable')
  }
  let text: string | undefined
  try {
    text = await readTextAtMost(response, options.maxBytes ?? MAX_RESPONSE_BYTES)
  } catch {
    throw new UpstreamError(service, deadline.expired ? 'timeout' : 'unreachable', { upstreamStatus: response.status })
  }
  if (text === undefined) throw new UpstreamError(service, 'bad-response', { upstreamStatus: response.status })
  let json: unknown
  let jsonOk = true
  try {
    json = JSON.parse(text)
  } catch {
    jsonOk = false
  }
  return { status: response.status, headers: response.headers, json, jsonOk }
}

/** Seconds the caller should wait, from the upstream's Retry-After (undefined when it sent none that reads). */
function retryAfterSeconds(headers: Headers): number | undefined {
  const ms = parseRetryAfter(headers.get('retry-after'))
  return ms === undefined ? undefined : Math.min(RETRY_AFTER_SECONDS.max, Math.max(RETRY_AFTER_SECONDS.min, Math.ceil(ms / 1000)))
}

/** The error for a status other than 2xx, or undefined for a 2xx. */
function statusError(service: UpstreamService, answer: UpstreamAnswer): UpstreamError | undefined {
  const { status } = answer
  // OpenCage answers 402 when the day's quota is used up: a rate limit too.
  switch (status === 402 ? 'rate-limited' : statusClass(status)) {
    case 'ok':
      return undefined
    case 'rate-limited':
      return new UpstreamError(service, 'rate-limited', { upstreamStatus: status, retryAfterSeconds: retryAfterSeconds(answer.headers) })
    case 'denied':
      return new UpstreamError(service, 'rejected-key', { upstreamStatus: status })
    case 'server-error':
      return new UpstreamError(service, 'upstream-error', { upstreamStatus: status })
    default:
      return new UpstreamError(service, 'rejected-request', { upstreamStatus: status })
  }
}

/** GETs `url` and reads the answer with `parse`: the upstream's refusals and an answer `parse` cannot read become UpstreamErrors. */
export async function getParsed<T>(
  service: UpstreamService,
  url: URL,
  options: Parameters<typeof getJson>[2],
  parse: (json: unknown) => T | undefined,
): Promise<T> {
  const answer = await getJson(service, url, options)
  const refusal = statusError(service, answer)
  if (refusal) throw refusal
  const parsed = answer.jsonOk ? parse(answer.json) : undefined
  if (parsed === undefined) throw new UpstreamError(service, 'bad-response', { upstreamStatus: answer.status })
  return parsed
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g

/** Upstream text made display-safe: control characters become spaces, trimmed, cut to max. */
export function cleanText(value: string, max = 120): string {
  const text = value.replace(CONTROL_CHARACTERS, ' ').trim()
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
