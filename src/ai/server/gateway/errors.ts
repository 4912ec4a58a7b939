/** Errors of the model gateway client, classified as docs/ai-helper.md ("The model chain") says. */

import { statusClass } from '@/upstreams/outbound'

export type GatewayErrorCode =
  // refused before any request
  | 'missing_key'
  | 'invalid_key_format'
  | 'invalid_request'
  // answered by the gateway
  | 'bad_request'
  | 'unknown_model'
  | 'invalid_key'
  | 'insufficient_credits'
  | 'moderation'
  | 'no_endpoints'
  | 'gateway_timeout'
  | 'rate_limited'
  | 'daily_limit'
  | 'provider_error'
  | 'unavailable'
  | 'server_error'
  | 'http_error'
  | 'upstream_error'
  | 'empty_content'
  | 'invalid_response'
  // on our side of the wire
  | 'timeout'
  | 'network'
  | 'aborted'
  // not tried: an earlier failure showed this model cannot succeed (402 → paid, daily cap → :free)
  | 'skipped'

export type GatewayErrorInit = {
  code: GatewayErrorCode
  /** Short, user-presentable reason ("rate limited", "invalid API key", …). */
  reason: string
  status?: number
  statusText?: string
  /** The gateway's own `error.code` and `error.message`, when it sent them. */
  gatewayCode?: number | string
  gatewayMessage?: string
  metadata?: Record<string, unknown>
  retryable?: boolean
  retryAfterMs?: number
  model?: string
  cause?: unknown
}

// At least one character after the prefix: the bare prefix in a hint ("keys start with "sk-or-"") is no key.
const KEY_PATTERN = /sk-or-[A-Za-z0-9_-]+/g

/** Removes anything shaped like a gateway key from a text that may reach a log or a user. */
export const redactKeys = (text: string): string => text.replace(KEY_PATTERN, 'sk-or-***')

function buildMessage(init: GatewayErrorInit): string {
  const parts: string[] = []
  if (init.status !== undefined) parts.push(`${init.status}${init.statusText ? ` ${init.statusText}` : ''}`)
  if (init.gatewayMessage) parts.push(init.gatewayMessage)
  const detail = parts.length > 0 ? `${parts.join(': ')} (${init.reason})` : init.reason
  return redactKeys(`AI gateway request failed${init.model ? ` for model ${init.model}` : ''}: ${detail}`)
}

export class GatewayError extends Error {
  readonly code: GatewayErrorCode
  readonly reason: string
  readonly status?: number
  readonly statusText?: string
  readonly gatewayCode?: number | string
  readonly gatewayMessage?: string
  readonly metadata?: Record<string, unknown>
  readonly retryable: boolean
  readonly retryAfterMs?: number
  readonly model?: string
  /** How many HTTP attempts were made before giving up (set by the client). */
  attempts = 0

  constructor(init: GatewayErrorInit) {
    super(buildMessage(init), init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'GatewayError'
    this.code = init.code
    this.reason = init.reason
    this.status = init.status
    this.statusText = init.statusText
    this.gatewayCode = init.gatewayCode
    this.gatewayMessage = init.gatewayMessage === undefined ? undefined : redactKeys(init.gatewayMessage)
    this.metadata = init.metadata
    this.retryable = init.retryable ?? false
    this.retryAfterMs = init.retryAfterMs
    this.model = init.model
  }

  /** The same error attributed to a model (keeps every other field). */
  withModel(model: string): GatewayError {
    if (this.model === model) return this
    const copy = new GatewayError({ ...this.init(), model })
    copy.attempts = this.attempts
    return copy
  }

  private init(): GatewayErrorInit {
    return {
      code: this.code,
      reason: this.reason,
      status: this.status,
      statusText: this.statusText,
      gatewayCode: this.gatewayCode,
      gatewayMessage: this.gatewayMessage,
      metadata: this.metadata,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      model: this.model,
      cause: this.cause,
    }
  }
}

export type ModelFailure = { model: string; error: GatewayError }

/** Every model of a fallback list failed; `failures` keeps each model's error in order. */
export class AllModelsFailedError extends Error {
  readonly failures: ModelFailure[]

  constructor(failures: ModelFailure[]) {
    const summary = failures.map(({ model, error }) => `${model}: ${describeFailure(error)}`).join('; ')
    super(redactKeys(`all AI models failed: ${summary || 'no model to try'}`))
    this.name = 'AllModelsFailedError'
    this.failures = failures
  }

  /** A compact reason list such as "a/b:free: rate limited; c/d: unknown model". */
  get reasons(): string {
    return this.failures.map(({ model, error }) => `${model}: ${error.reason}`).join('; ')
  }
}

const describeFailure = (error: GatewayError) =>
  error.status === undefined ? error.reason : `${error.reason} (${error.status}${error.statusText ? ` ${error.statusText}` : ''})`

/** Reason phrases for when the transport gives none (HTTP/2, some proxies). */
export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export const DAILY_CAP_MARKER = 'free-models-per-day'

type ErrorBody = { code?: number | string; message?: string; metadata?: Record<string, unknown> }

/** Reads `{error: {code, message, metadata}}` from a parsed body, tolerating odd shapes. */
export function readErrorBody(json: unknown): ErrorBody | undefined {
  if (!json || typeof json !== 'object') return undefined
  const error = (json as { error?: unknown }).error
  if (error === undefined || error === null) return undefined
  if (typeof error === 'string') return { message: error }
  if (typeof error !== 'object') return { message: String(error) }
  const { code, message, metadata } = error as Record<string, unknown>
  return {
    code: typeof code === 'number' || typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? message : message === undefined ? undefined : JSON.stringify(message),
    metadata: metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : undefined,
  }
}

/** A daily free-tier cap (`free-models-per-day`) does not clear by retrying. */
export function isDailyCap(body: ErrorBody | undefined): boolean {
  if (!body) return false
  const haystack = `${body.message ?? ''} ${body.metadata ? JSON.stringify(body.metadata) : ''}`
  return haystack.includes(DAILY_CAP_MARKER)
}

function dailyCapReset(body: ErrorBody | undefined): string | undefined {
  const headers = body?.metadata?.headers
  if (!headers || typeof headers !== 'object') return undefined
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-ratelimit-reset')
  const reset = Number(entry?.[1])
  return Number.isFinite(reset) && reset > 0 ? new Date(reset).toISOString() : undefined
}

type Classification = Pick<GatewayErrorInit, 'code' | 'reason' | 'retryable'>

/** Maps an HTTP status (or the numeric `error.code` of a 200 body) to the client's behaviour (docs/ai-helper.md). */
export function classifyStatus(status: number, body: ErrorBody | undefined): Classification {
  const message = body?.message ?? ''
  switch (status) {
    case 400:
      return /is not a valid model id/i.test(message)
        ? { code: 'unknown_model', reason: 'unknown model', retryable: false }
        : { code: 'bad_request', reason: 'bad request', retryable: false }
    case 401:
      return { code: 'invalid_key', reason: 'invalid API key', retryable: false }
    case 402:
      return { code: 'insufficient_credits', reason: "insufficient credits; try a ':free' model", retryable: false }
    case 403: {
      const reasons = body?.metadata?.reasons
      const list = Array.isArray(reasons) ? reasons.filter((item) => typeof item === 'string').join(', ') : ''
      return { code: 'moderation', reason: `refused by moderation${list ? ` (${list})` : ''}`, retryable: false }
    }
    case 404:
      return { code: 'no_endpoints', reason: 'no endpoint serves this model', retryable: false }
    case 408:
      return { code: 'gateway_timeout', reason: 'the gateway timed out', retryable: true }
    case 429: {
      if (isDailyCap(body)) {
        const reset = dailyCapReset(body)
        return { code: 'daily_limit', reason: `daily free-model limit reached${reset ? ` until ${reset}` : ''}`, retryable: false }
      }
      return { code: 'rate_limited', reason: 'rate limited', retryable: true }
    }
    // 5xx: another model (another provider) is likelier to answer than the same one again.
    case 502:
      return { code: 'provider_error', reason: 'the model provider returned an error', retryable: false }
    case 503:
      return { code: 'unavailable', reason: 'the model is unavailable', retryable: false }
    default:
      if (statusClass(status) === 'server-error') return { code: 'server_error', reason: 'gateway server error', retryable: false }
      return { code: 'http_error', reason: `unexpected HTTP status ${status}`, retryable: false }
  }
}
