// The single way requests reach the broker: NGSI-LD headers, percent-encoding, a timeout
// on every attempt and retries with backoff for failures that may heal (network, 5xx).

import pRetry, { AbortError } from 'p-retry'

import { startDeadline, statusClass } from '@/upstreams/outbound'

import { errorFromResponse, isRetryable, NgsiError } from './errors'
import { arrayPieces, isBlank, parseJsonBytes } from './json'
import type { BrokerAnswer, BrokerTransport } from './transport'
import { TENANT_NAME } from './names'

export const JSON_LD_CONTEXT_REL = 'http://www.w3.org/ns/json-ld#context'

export interface HttpConfig {
  transport: BrokerTransport
  contextUrl: string
  tenant?: string
  authToken?: string
  timeoutMs: number
  retries: number
}

/** Per-call overrides every public client method accepts. */
export interface CallOptions {
  signal?: AbortSignal
  tenant?: string
  contextUrl?: string
}

/** A 2xx answer that is not an HTML page, its body still bytes (see `parseBody`). */
export interface BrokerResponse extends Pick<BrokerAnswer, 'status' | 'headers' | 'body' | 'release'> {
  url: string
}

/** The same answer, its body parsed. */
export type JsonResponse = Omit<BrokerResponse, 'body' | 'release'> & { body: unknown }

/** encodeURIComponent leaves !'()* alone; brokers and proxies disagree about those, so encode them too. */
export function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** A query string with every key and value encoded; list values keep their separating commas. */
export function queryString(params: Record<string, string | number | boolean | string[] | undefined>): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.map(encode).join(',') : encode(String(value))
    parts.push(`${encode(key)}=${text}`)
  }
  return parts.length ? `?${parts.join('&')}` : ''
}

export function requestHeaders(config: HttpConfig, call: CallOptions = {}): Record<string, string> {
  const contextUrl = call.contextUrl ?? config.contextUrl
  if (!/^https?:\/\/[^\s<>"]+$/.test(contextUrl)) throw new NgsiError('bad-request', `Invalid @context URL '${contextUrl}'`)
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Link: `<${contextUrl}>; rel="${JSON_LD_CONTEXT_REL}"; type="application/ld+json"`,
  }
  const tenant = (call.tenant ?? config.tenant)?.trim()
  if (tenant) {
    if (!TENANT_NAME.test(tenant)) throw new NgsiError('bad-request', `Invalid tenant name '${tenant.slice(0, 80)}'`)
    headers['NGSILD-Tenant'] = tenant
  }
  if (config.authToken) headers.Authorization = `Bearer ${config.authToken}`
  return headers
}

export interface LinkValue {
  url: string
  rel?: string
}

/** Splits a (possibly comma-joined) Link header into its targets. */
export function parseLinkHeader(header: string | null): LinkValue[] {
  if (!header) return []
  const links: LinkValue[] = []
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,=]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(match[2])
    links.push({ url: match[1], rel: rel ? (rel[1] ?? rel[2]) : undefined })
  }
  return links
}

function networkError(error: unknown): NgsiError {
  const { code, cause } = error as { code?: string; cause?: { code?: string; message?: string } }
  const reason = cause?.code ?? code ?? cause?.message ?? (error as Error).message
  return new NgsiError('network', `Cannot reach the broker (${reason})`, { cause: error })
}

function isHtml(contentType: string | null, body: Buffer): boolean {
  return /html/i.test(contentType ?? '') || /^\s*<(!doctype|html)/i.test(body.toString('latin1', 0, 512))
}

async function attempt(config: HttpConfig, url: string, headers: Record<string, string>, options: CallOptions): Promise<BrokerResponse> {
  const { timeoutMs } = config
  const deadline = startDeadline(timeoutMs, options.signal)
  let response: BrokerAnswer
  try {
    response = await config.transport(url, { headers, signal: deadline.signal })
  } catch (error) {
    // The caller gave up: no retry, and the caller's own reason, not ours.
    if (options.signal?.aborted) throw new AbortError(options.signal.reason instanceof Error ? options.signal.reason : String(options.signal.reason))
    // The transport's own refusal (an answer too large): not a network fault, and not retried.
    if (error instanceof NgsiError) throw error
    if (deadline.expired) throw new NgsiError('timeout', `No answer from the broker within ${timeoutMs} ms`, { cause: error })
    throw networkError(error)
  }
  const refusal = refusalOf(response)
  if (refusal) {
    response.release?.()
    throw refusal
  }
  return { status: response.status, headers: response.headers, body: response.body, release: response.release, url }
}

/** Why an answer cannot be used (a redirect, an error status, an HTML page), or undefined. */
function refusalOf({ status, statusText, headers, body }: BrokerAnswer): NgsiError | undefined {
  const contentType = headers.get('content-type')
  const kind = statusClass(status)
  if (kind === 'redirect') {
    return new NgsiError('invalid-response', `Broker answered ${status} (a redirect): set its URL to the address it redirects to`, { status })
  }
  if (kind !== 'ok') return errorFromResponse(status, statusText, body.toString('utf8'), contentType)
  if (isHtml(contentType, body)) return new NgsiError('invalid-response', `Broker answered ${status} with an HTML page instead of JSON`, { status })
  return undefined
}

/**
 * GET with timeout and retries, the body left as bytes: a page fetched ahead of its turn waits as
 * bytes, not as objects. Every failure becomes an NgsiError (or the caller's abort reason).
 */
export async function getBody(config: HttpConfig, url: string, options: CallOptions = {}): Promise<BrokerResponse> {
  const headers = requestHeaders(config, options)
  return pRetry(() => attempt(config, url, headers, options), {
    retries: config.retries,
    minTimeout: 100,
    factor: 2,
    signal: options.signal,
    shouldRetry: ({ error }) => isRetryable(error),
  })
}

const notJson = (status: number, cause: unknown) =>
  new NgsiError('invalid-response', `Broker answered ${status} with a body that is not valid JSON`, { status, cause })

/** The JSON value of an answer's body (null for an empty one); a body that is not JSON is the broker's fault. */
export function parseBody({ status, body }: Pick<BrokerResponse, 'status' | 'body'>): unknown {
  if (isBlank(body)) return null
  try {
    return parseJsonBytes(body)
  } catch (error) {
    throw notJson(status, error)
  }
}

/**
 * The elements of an answer whose body is a JSON array, a piece at a time as they are read (see
 * arrayPieces); undefined when the body is not an array. A fault met on the way is the broker's.
 */
export function bodyPieces({ status, body }: Pick<BrokerResponse, 'status' | 'body'>): Iterable<unknown[]> | undefined {
  const pieces = arrayPieces(body)
  return pieces && brokerFaults(pieces, status)
}

function* brokerFaults(pieces: Iterable<unknown[]>, status: number): Generator<unknown[]> {
  try {
    yield* pieces
  } catch (error) {
    throw error instanceof SyntaxError ? notJson(status, error) : error
  }
}

/** GET a JSON resource with timeout and retries; every failure becomes an NgsiError (or the caller's abort reason). */
export async function getJson(config: HttpConfig, url: string, options: CallOptions = {}): Promise<JsonResponse> {
  const { release, ...response } = await getBody(config, url, options)
  try {
    return { ...response, body: parseBody(response) }
  } finally {
    release?.()
  }
}
