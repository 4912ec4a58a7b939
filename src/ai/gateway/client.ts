import pLimit, { type LimitFunction } from 'p-limit'
import { z } from 'zod'

import {
  AllModelsFailedError,
  classifyStatus,
  GatewayError,
  readErrorBody,
  redactKeys,
  STATUS_TEXT,
  type GatewayErrorCode,
  type ModelFailure,
} from './errors'
import { parseRetryAfter, sleep } from './retry-after'

/**
 * Client of an OpenRouter-compatible model gateway (see shared/gateway/CONTRACT.md).
 *
 * Plain `fetch` rather than the `openai` package: its errors drop the HTTP status text the
 * contract wants in messages, it has no `/key` call, its retry policy (exponential jitter,
 * retrying daily caps too) is not ours, and with its retries off what remains is one POST.
 * Reads no environment: the caller passes settings.
 */

/** Used when neither the request nor the configuration names a model. Free models come and go: set GATEWAY_MODEL. */
export const FREE_DEFAULT_MODEL = 'meta-llama/llama-3.3-70b-instruct:free'
export const API_KEY_PREFIX = 'sk-or-'
export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_IN_FLIGHT = 3
export const DEFAULT_MAX_RETRIES = 2
export const DEFAULT_RETRY_DELAY_MS = 1000
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000

export type GatewayConfig = {
  /** Gateway origin, e.g. https://openrouter.ai (a trailing `/api/v1` is tolerated). */
  url: string
  apiKey: string | undefined
  model?: string
  /** Sent as HTTP-Referer. */
  siteUrl?: string
  /** Sent as X-Title (and X-OpenRouter-Title). */
  appName?: string
  /** Per HTTP attempt, from when it leaves the queue. */
  timeoutMs?: number
  /** Requests in flight at once per client; the rest wait in a queue. */
  maxInFlight?: number
  /** Extra attempts after a retryable failure (408, 429 other than the daily cap, 5xx). */
  maxRetries?: number
  /** Wait before a retry when the gateway sends no Retry-After. */
  retryDelayMs?: number
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryWaitMs?: number
  fetch?: typeof fetch
}

export const generateTextRequestSchema = z.object({
  prompt: z.string().refine((prompt) => prompt.trim() !== '', 'must not be empty'),
  max_tokens: z.number().int().min(1).max(1_000_000).default(500),
  temperature: z.number().min(0).max(2).default(0.7),
  top_p: z.number().gt(0).max(1).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  model: z.string().trim().min(1).optional(),
})

export type GenerateTextRequest = z.input<typeof generateTextRequestSchema> & { signal?: AbortSignal }

export type GenerationUsage = { promptTokens?: number; completionTokens?: number; totalTokens?: number }

export type GenerationResult = {
  content: string
  /** The model that served the answer (the gateway may substitute one). */
  model: string
  requestedModel: string
  id?: string
  finishReason?: string
  usage?: GenerationUsage
}

export type ModelInfo = {
  id: string
  name?: string
  contextLength?: number
  pricing?: { prompt?: string; completion?: string }
  maxCompletionTokens?: number
  /** `:free` id or priced "0". */
  isFree: boolean
}

export type KeyInfo = {
  label?: string
  limit: number | null
  usage?: number
  isFreeTier?: boolean
}

type RequestOptions = { signal?: AbortSignal }

type Call<T> = {
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  model?: string
  signal?: AbortSignal
  read: (json: unknown, response: Response) => T
}

const numberOrUndefined = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

const priceSchema = z.union([z.string(), z.number()]).transform(String).optional().catch(undefined)

const modelListSchema = z.object({
  data: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().optional().catch(undefined),
      context_length: z.number().nullish().catch(undefined),
      pricing: z
        .object({ prompt: priceSchema, completion: priceSchema })
        .optional()
        .catch(undefined),
      top_provider: z.object({ max_completion_tokens: z.number().nullish() }).nullish().catch(undefined),
    }),
  ),
})

const keyInfoSchema = z.object({
  data: z.object({
    label: z.string().optional().catch(undefined),
    limit: z.number().nullish().catch(null),
    usage: z.number().optional().catch(undefined),
    is_free_tier: z.boolean().optional().catch(undefined),
  }),
})

/** Header values must be ByteStrings: drop control characters, percent-encode non-ASCII. */
const headerValue = (value: string) =>
  value
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .replace(/[^\u0020-\u007e]/g, (char) => encodeURIComponent(char))

function normaliseBaseUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TypeError(`gateway url is not a valid URL: ${JSON.stringify(url)}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError('gateway url must be http(s)')
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')
  return `${parsed.origin}${path}/api/v1`
}

const positiveInteger = (value: number | undefined, fallback: number, name: string, min = 1) => {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min) throw new TypeError(`${name} must be an integer ≥ ${min}`)
  return value
}

export class GatewayClient {
  readonly baseUrl: string
  readonly defaultModel: string
  readonly timeoutMs: number
  readonly maxInFlight: number
  readonly maxRetries: number
  private readonly apiKey: string | undefined
  private readonly siteUrl?: string
  private readonly appName?: string
  private readonly retryDelayMs: number
  private readonly maxRetryWaitMs: number
  private readonly fetchImpl: typeof fetch
  private readonly limit: LimitFunction

  constructor(config: GatewayConfig) {
    this.baseUrl = normaliseBaseUrl(config.url)
    this.apiKey = config.apiKey?.trim() || undefined
    this.defaultModel = config.model?.trim() || FREE_DEFAULT_MODEL
    this.siteUrl = config.siteUrl?.trim() || undefined
    this.appName = config.appName?.trim() || undefined
    this.timeoutMs = positiveInteger(config.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs')
    this.maxInFlight = positiveInteger(config.maxInFlight, DEFAULT_MAX_IN_FLIGHT, 'maxInFlight')
    this.maxRetries = positiveInteger(config.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries', 0)
    this.retryDelayMs = positiveInteger(config.retryDelayMs, DEFAULT_RETRY_DELAY_MS, 'retryDelayMs', 0)
    this.maxRetryWaitMs = positiveInteger(config.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS, 'maxRetryWaitMs', 0)
    this.fetchImpl = config.fetch ?? ((input, init) => fetch(input, init))
    this.limit = pLimit(this.maxInFlight)
  }

  /** Requests now on the wire and waiting for a slot (for diagnostics). */
  get load(): { active: number; queued: number } {
    return { active: this.limit.activeCount, queued: this.limit.pendingCount }
  }

  /** One user message in, `choices[0].message.content` out. */
  async generateText(request: GenerateTextRequest): Promise<string> {
    return (await this.complete(request)).content
  }

  /** Like generateText, with the served model, id and usage. */
  async complete(request: GenerateTextRequest): Promise<GenerationResult> {
    const { signal, ...rest } = request
    const parsed = generateTextRequestSchema.safeParse(rest)
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`)
      throw new GatewayError({ code: 'invalid_request', reason: `invalid request (${detail.join('; ')})` })
    }
    const { prompt, model: requestedModel, ...sampling } = parsed.data
    const model = requestedModel ?? this.defaultModel
    const body = {
      model,
      messages: [{ role: 'user', content: prompt }],
      ...sampling,
      transforms: ['middle-out'],
      route: 'fallback',
    }
    return this.send({
      method: 'POST',
      path: '/chat/completions',
      body,
      model,
      signal,
      read: (json) => readCompletion(json, model),
    })
  }

  /**
   * Tries each model in order; the first success wins. An invalid key, a refused request or a
   * caller's abort stops at once (no other model would do better); otherwise, when every model
   * fails, throws AllModelsFailedError naming each model's reason.
   */
  async generateWithModelFallback(models: readonly string[], request: GenerateTextRequest): Promise<GenerationResult> {
    const candidates = [...new Set(models.map((model) => model.trim()).filter(Boolean))]
    if (candidates.length === 0) candidates.push(request.model?.trim() || this.defaultModel)
    const failures: ModelFailure[] = []
    for (const model of candidates) {
      try {
        return await this.complete({ ...request, model })
      } catch (error) {
        const gatewayError = asGatewayError(error).withModel(model)
        if (STOPS_FALLBACK.has(gatewayError.code)) throw gatewayError
        failures.push({ model, error: gatewayError })
      }
    }
    throw new AllModelsFailedError(failures)
  }

  /** GET /models. */
  async listModels(options: RequestOptions = {}): Promise<ModelInfo[]> {
    return this.send({ method: 'GET', path: '/models', signal: options.signal, read: readModels })
  }

  /** GET /key (falls back to the legacy /auth/key on 404): label, limit, usage, free tier. */
  async keyInfo(options: RequestOptions = {}): Promise<KeyInfo> {
    try {
      return await this.send({ method: 'GET', path: '/key', signal: options.signal, read: readKeyInfo })
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== 404) throw error
      return this.send({ method: 'GET', path: '/auth/key', signal: options.signal, read: readKeyInfo })
    }
  }

  private checkKey(): void {
    if (!this.apiKey) throw new GatewayError({ code: 'missing_key', reason: 'no API key configured' })
    if (!this.apiKey.startsWith(API_KEY_PREFIX)) {
      throw new GatewayError({
        code: 'invalid_key_format',
        reason: `invalid API key (gateway keys start with "${API_KEY_PREFIX}")`,
      })
    }
  }

  private headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: 'application/json',
    }
    if (hasBody) headers['Content-Type'] = 'application/json'
    if (this.siteUrl) headers['HTTP-Referer'] = headerValue(this.siteUrl)
    if (this.appName) {
      headers['X-Title'] = headerValue(this.appName)
      headers['X-OpenRouter-Title'] = headerValue(this.appName)
    }
    return headers
  }

  /** Bounded retries around single attempts; each attempt takes one of the client's slots. */
  private async send<T>(call: Call<T>): Promise<T> {
    this.checkKey()
    for (let attempt = 1; ; attempt++) {
      try {
        return await untilAborted(this.limit(() => this.attempt(call)), call)
      } catch (error) {
        const gatewayError = asGatewayError(error, call.model)
        gatewayError.attempts = attempt
        if (!gatewayError.retryable || attempt > this.maxRetries) throw gatewayError
        const wait = gatewayError.retryAfterMs ?? this.retryDelayMs
        if (wait > this.maxRetryWaitMs) throw gatewayError
        try {
          await sleep(wait, call.signal)
        } catch (reason) {
          throw aborted(call.model, reason)
        }
      }
    }
  }

  private async attempt<T>(call: Call<T>): Promise<T> {
    if (call.signal?.aborted) throw aborted(call.model, call.signal.reason)
    const timeout = AbortSignal.timeout(this.timeoutMs)
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
    let response: Response
    let text: string
    try {
      response = await this.fetchImpl(`${this.baseUrl}${call.path}`, {
        method: call.method,
        headers: this.headers(call.body !== undefined),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      })
      text = await response.text()
    } catch (error) {
      if (call.signal?.aborted) throw aborted(call.model, error)
      if (timeout.aborted) {
        throw new GatewayError({
          code: 'timeout',
          reason: `no answer within ${this.timeoutMs} ms`,
          model: call.model,
          cause: error,
        })
      }
      throw new GatewayError({ code: 'network', reason: networkReason(error), model: call.model, cause: error })
    }
    const json = parseJson(text)
    if (!response.ok) throw errorFromResponse(response, json, text, call.model)
    if (json === undefined) {
      throw new GatewayError({
        code: 'invalid_response',
        reason: 'the gateway answered with something other than JSON',
        status: response.status,
        statusText: statusTextOf(response.status, response.statusText),
        model: call.model,
      })
    }
    try {
      return call.read(json, response)
    } catch (error) {
      if (error instanceof GatewayError) throw error
      throw new GatewayError({
        code: 'invalid_response',
        reason: 'unexpected response shape',
        status: response.status,
        statusText: statusTextOf(response.status, response.statusText),
        model: call.model,
        cause: error,
      })
    }
  }
}

export const createGatewayClient = (config: GatewayConfig) => new GatewayClient(config)

/** Failures no other model can fix. */
const STOPS_FALLBACK = new Set<GatewayErrorCode>(['missing_key', 'invalid_key_format', 'invalid_key', 'invalid_request', 'aborted'])

function asGatewayError(error: unknown, model?: string): GatewayError {
  if (error instanceof GatewayError) return error
  return new GatewayError({
    code: 'network',
    reason: error instanceof Error ? redactKeys(error.message) : 'unexpected failure',
    model,
    cause: error,
  })
}

/** A queued call rejects as soon as its caller aborts (its slot, when it comes, is released at once). */
function untilAborted<T>(promise: Promise<T>, call: Call<unknown>): Promise<T> {
  const { signal } = call
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted(call.model, signal.reason))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

const aborted = (model: string | undefined, cause: unknown) =>
  new GatewayError({ code: 'aborted', reason: 'the request was cancelled', model, cause })

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause
  const code = typeof cause?.code === 'string' ? cause.code : undefined
  return `gateway unreachable${code ? ` (${code})` : ''}`
}

const statusTextOf = (status: number, statusText: string) => statusText || STATUS_TEXT[status] || ''

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function errorFromResponse(response: Response, json: unknown, text: string, model?: string): GatewayError {
  const body = readErrorBody(json)
  const classification = classifyStatus(response.status, body)
  // Non-JSON bodies (an HTML page from a proxy) add nothing: the status text speaks for them.
  const plain = json === undefined && text.length <= 200 && !text.trimStart().startsWith('<') ? text.trim() : undefined
  const retryAfterMs = classification.retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined
  return new GatewayError({
    ...classification,
    status: response.status,
    statusText: statusTextOf(response.status, response.statusText),
    gatewayCode: body?.code,
    gatewayMessage: body?.message ?? (plain || undefined),
    metadata: body?.metadata,
    retryAfterMs,
    model,
  })
}

/** A 200 is a success only with choices, no `error`, and non-empty content. */
function readCompletion(json: unknown, requestedModel: string): GenerationResult {
  const fail = (code: GatewayErrorCode, reason: string, extra: Partial<ConstructorParameters<typeof GatewayError>[0]> = {}) =>
    new GatewayError({ code, reason, status: 200, statusText: 'OK', model: requestedModel, ...extra })
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw fail('invalid_response', 'unexpected response shape')
  const record = json as Record<string, unknown>
  const choices = Array.isArray(record.choices) ? record.choices : []
  const first = (choices[0] ?? undefined) as Record<string, unknown> | undefined
  const bodyError = readErrorBody(record) ?? (first ? readErrorBody(first) : undefined)
  if (bodyError || first?.finish_reason === 'error') {
    const numeric = typeof bodyError?.code === 'number' ? bodyError.code : Number(bodyError?.code)
    const classification =
      Number.isInteger(numeric) && numeric >= 400
        ? classifyStatus(numeric, bodyError)
        : { code: 'upstream_error' as const, reason: 'the gateway reported an error', retryable: false }
    throw fail(classification.code, classification.reason, {
      retryable: classification.retryable,
      gatewayCode: bodyError?.code,
      gatewayMessage: bodyError?.message ?? 'finish_reason "error"',
      metadata: bodyError?.metadata,
    })
  }
  if (!first) throw fail('invalid_response', 'the answer has no choices')
  const content = contentText((first.message as { content?: unknown } | undefined)?.content)
  if (content === undefined || content.trim() === '') throw fail('empty_content', 'the model returned no content')
  const usage = record.usage as Record<string, unknown> | undefined
  return {
    content,
    model: typeof record.model === 'string' && record.model ? record.model : requestedModel,
    requestedModel,
    id: typeof record.id === 'string' ? record.id : undefined,
    finishReason: typeof first.finish_reason === 'string' ? first.finish_reason : undefined,
    usage:
      usage && typeof usage === 'object'
        ? {
            promptTokens: numberOrUndefined(usage.prompt_tokens),
            completionTokens: numberOrUndefined(usage.completion_tokens),
            totalTokens: numberOrUndefined(usage.total_tokens),
          }
        : undefined,
  }
}

/** A string, or content parts `[{type:"text", text}]` joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return undefined
  const texts = content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? (part.text as string) : ''))
    .filter(Boolean)
  return texts.length > 0 ? texts.join('') : undefined
}

function readModels(json: unknown): ModelInfo[] {
  return modelListSchema.parse(json).data.map((model) => {
    const pricing = model.pricing ? { prompt: model.pricing.prompt, completion: model.pricing.completion } : undefined
    const pricedZero = pricing !== undefined && Number(pricing.prompt) === 0 && Number(pricing.completion) === 0
    return {
      id: model.id,
      name: model.name,
      contextLength: model.context_length ?? undefined,
      pricing,
      maxCompletionTokens: model.top_provider?.max_completion_tokens ?? undefined,
      isFree: model.id.endsWith(':free') || pricedZero,
    }
  })
}

function readKeyInfo(json: unknown): KeyInfo {
  const { data } = keyInfoSchema.parse(json)
  return { label: data.label, limit: data.limit ?? null, usage: data.usage, isFreeTier: data.is_free_tier }
}
