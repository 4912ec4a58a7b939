// The one way out to an upstream (weather, geocoding, the model gateway; the broker's transport
// takes its deadline and status classes): a deadline joined with the caller's signal, no
// redirects, bodies read up to a limit, Retry-After and status classes read the same way.

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>

/** A deadline joined with the caller's own signal. */
export interface Deadline {
  /** Aborts when the time is up or the caller aborts, whichever comes first. */
  readonly signal: AbortSignal
  /** When the time is up, in epoch milliseconds. */
  readonly at: number
  /** Whether the time is up (as opposed to the caller having given up). */
  readonly expired: boolean
}

export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const timeout = AbortSignal.timeout(timeoutMs)
  return {
    signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout,
    at: Date.now() + timeoutMs,
    get expired() {
      return timeout.aborted
    },
  }
}

/** An upstream answered with a redirect, which is never followed. */
export class RedirectRefused extends Error {
  constructor(readonly status: number) {
    super(`The upstream answered ${status} (a redirect), which is not followed`)
    this.name = 'RedirectRefused'
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Usually a Deadline's signal. */
  signal: AbortSignal
  fetch?: FetchLike
}

/**
 * Sends one request. A redirect is refused (RedirectRefused, its body dropped) rather than
 * followed: a key in the URL or the headers never goes to an address the upstream names.
 */
export async function send(url: string | URL, request: OutboundRequest): Promise<Response> {
  const fetchImpl = request.fetch ?? globalThis.fetch
  const { method = 'GET', headers, body, signal } = request
  const response = await fetchImpl(url, { method, headers, body, signal, redirect: 'manual' })
  if (statusClass(response.status) === 'redirect') {
    await response.body?.cancel().catch(() => undefined)
    throw new RedirectRefused(response.status)
  }
  return response
}

/** True when the message declares a Content-Length above `maxBytes`: refuse it before reading a byte. */
export const declaresMoreThan = (message: Request | Response, maxBytes: number) => Number(message.headers.get('content-length') ?? 0) > maxBytes

/**
 * The body of a request or response, read chunk by chunk and abandoned as soon as it passes
 * `maxBytes` (a chunked body has no Content-Length to check first), so a huge body never sits in
 * memory; `undefined` when it is too large. A declared Content-Length over the limit is refused
 * before a byte is read.
 */
export async function readAtMost(message: Request | Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!message.body) return new Uint8Array()
  if (declaresMoreThan(message, maxBytes)) {
    await message.body.cancel().catch(() => undefined)
    return undefined
  }
  const reader = message.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/** The body as UTF-8 text, or undefined when it passes `maxBytes` (see readAtMost). */
export async function readTextAtMost(message: Request | Response, maxBytes: number): Promise<string | undefined> {
  const bytes = await readAtMost(message, maxBytes)
  return bytes && Buffer.from(bytes).toString('utf8')
}

/**
 * `Retry-After` as milliseconds to wait: delta-seconds ("2", "0.5") or an HTTP date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // Only real dates: Date.parse accepts too much ("1", "-5"), so ask for a letter and a colon.
  if (!/[A-Za-z]/.test(text) || !text.includes(':')) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/**
 * What a status says, before each client reads its own details into it:
 * ok (2xx), redirect (3xx, refused), denied (401/403: who asks is refused), rate-limited (429),
 * server-error (5xx), client-error (any other: the request was refused).
 */
export type StatusClass = 'ok' | 'redirect' | 'denied' | 'rate-limited' | 'client-error' | 'server-error'

export function statusClass(status: number): StatusClass {
  if (status >= 200 && status < 300) return 'ok'
  if (status >= 300 && status < 400) return 'redirect'
  if (status === 401 || status === 403) return 'denied'
  if (status === 429) return 'rate-limited'
  if (status >= 500) return 'server-error'
  return 'client-error'
}

/** Waits `ms`, rejecting early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
