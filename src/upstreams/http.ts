import { readAtMost } from '@/server/body'

import { UpstreamError, type UpstreamService } from './errors'

/** Shared plumbing of the upstream clients: bounded time and size, status mapping, no key leaks. */

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>

export const DEFAULT_TIMEOUT_MS = 5_000
/** Largest upstream body read; bigger answers are refused as bad responses. */
export const MAX_RESPONSE_BYTES = 512 * 1024

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

/** Seconds from a Retry-After header (delta-seconds or HTTP date), clamped to 1..3600. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const text = value.trim()
  let seconds: number
  if (/^\d+$/.test(text)) seconds = Number(text)
  else {
    const date = Date.parse(text)
    if (!Number.isFinite(date)) return undefined
    seconds = Math.ceil((date - now) / 1000)
  }
  return Math.min(3600, Math.max(1, seconds))
}

async function readLimited(response: Response, maxBytes: number): Promise<string | undefined> {
  const bytes = await readAtMost(response, maxBytes)
  return bytes && Buffer.from(bytes).toString('utf8')
}

export type UpstreamAnswer = { status: number; headers: Headers; json: unknown; jsonOk: boolean }

/**
 * GETs `url` and returns its status and parsed JSON. Throws UpstreamError for a timeout (the whole
 * exchange, body included, must finish within timeoutMs), an unreachable host, or an oversized body.
 * Nothing of the URL (which carries the key) or of a low-level error goes into what is thrown.
 */
export async function getJson(
  service: UpstreamService,
  url: URL,
  options: { fetch?: FetchLike; timeoutMs?: number; signal?: AbortSignal; maxBytes?: number },
): Promise<UpstreamAnswer> {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const onCallerAbort = () => controller.abort()
  options.signal?.addEventListener('abort', onCallerAbort, { once: true })
  if (options.signal?.aborted) controller.abort()

  try {
    let response: Response
    try {
      response = await fetchImpl(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: controller.signal,
        // The key is in the query: never let a redirect carry it elsewhere.
        redirect: 'error',
      })
    } catch {
      throw new UpstreamError(service, timedOut ? 'timeout' : 'unreachable')
    }
    let text: string | undefined
    try {
      text = await readLimited(response, options.maxBytes ?? MAX_RESPONSE_BYTES)
    } catch {
      throw new UpstreamError(service, timedOut ? 'timeout' : 'unreachable', { upstreamStatus: response.status })
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
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onCallerAbort)
  }
}

/** Maps a non-2xx upstream status to the error to throw. */
export function statusError(service: UpstreamService, answer: UpstreamAnswer): UpstreamError {
  const { status } = answer
  if (status === 429 || status === 402) {
    return new UpstreamError(service, 'rate-limited', {
      upstreamStatus: status,
      retryAfterSeconds: parseRetryAfter(answer.headers.get('retry-after')),
    })
  }
  if (status === 401 || status === 403) return new UpstreamError(service, 'rejected-key', { upstreamStatus: status })
  if (status >= 500) return new UpstreamError(service, 'upstream-error', { upstreamStatus: status })
  return new UpstreamError(service, 'rejected-request', { upstreamStatus: status })
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g

/** Upstream text made display-safe: control characters become spaces, trimmed, cut to max. */
export function cleanText(value: string, max = 120): string {
  const text = value.replace(CONTROL_CHARACTERS, ' ').trim()
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
