import pLimit, { type LimitFunction } from 'p-limit'
import { z } from 'zod'

import { parseRetryAfter, RedirectRefused, send, sleep, startDeadline, statusClass, type Deadline } from '@/upstreams/outbound'

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
import { isFreeModel, modelChain } from './models'

/**
 * Client of an OpenRouter-compatible model gateway (docs/ai-helper.md, "The model chain").
 *
 * Plain `fetch` rather than the `openai` package: its errors drop the HTTP status text our
 * messages carry, it has no `/key` call, its retry policy (exponential jitter,
 * retrying daily caps too) is not ours, and with its retries off what remains is one POST.
 * Reads no environment: the caller passes settings.
 *
 * The model chain is walked here, one request per model, rather than sent as `models` with
 * `route: "fallback"`: the gateway's own fallback answers with the last failure only, so the
 * rules that depend on each failure (stop on a bad key, only `:free` models after a 402, skip
 * the `:free` models after the daily cap, one retry after a 429) and the record of which model
 * failed why would be out of reach.
 */

/** Used when neither the request nor the configuration names a model. Free models come and go: set GATEWAY_MODEL. */
export const FREE_DEFAULT_MODEL = 'meta-llama/llama-3.3-70b-instruct:free'
export const API_KEY_PREFIX = 'sk-or-'
export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_IN_FLIGHT = 3
/** A 429 or 408 is retried once on the same model, then the chain moves on. */
export const DEFAULT_MAX_RETRIES = 1
/** The least wait before a retry, whatever Retry-After says. */
export const MIN_RETRY_WAIT_MS = 1000

export type GatewayConfig = {
  /** Gateway origin, e.g. https://openrouter.ai (a trailing `/api/v1` is tolerated). */
  url: string
  apiKey: string | undefined
  /** The first model of the chain (FREE_DEFAULT_MODEL when unset). */
  model?: string
  /** Tried in order after `model` fails. */
  fallbackModels?: readonly string[]
  /** Sent as HTTP-Referer. */
  siteUrl?: string
  /** Sent as X-Title (and X-OpenRouter-Title). */
  appName?: string
  /** One deadline per model: from when its call is queued, through the request and any retry wait. */
  timeoutMs?: number
  /** Requests in flight at once per client; the rest wait in a queue. */
  maxInFlight?: number
  /** Extra attempts on the same model after a 408 or a 429 other than the daily cap. */
  maxRetries?: number
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
  /** The models of the chain that failed (or were skipped) before this one, with their errors. */
  failures: ModelFailure[]
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
  /** The caller's signal. */
  signal?: AbortSignal
  read: (json: unknown, response: Response) => T
}

/** A call with its deadline running. */
type TimedCall<T> = Call<T> & { deadline: Deadline; signal: AbortSignal }

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
  /** GATEWAY_MODEL then the fallbacks, as configured. */
  readonly models: readonly string[]
  readonly timeoutMs: number
  readonly maxInFlight: number
  readonly maxRetries: number
  private readonly apiKey: string | undefined
  private readonly siteUrl?: string
  private readonly appName?: string
  private readonly fetchImpl: typeof fetch
  private readonly limit: LimitFunction

  constructor(config: GatewayConfig) {
    this.baseUrl = normaliseBaseUrl(config.url)
    this.apiKey = config.apiKey?.trim() || undefined
    this.models = modelChain(config.model?.trim() || FREE_DEFAULT_MODEL, config.fallbackModels ?? [])
    this.siteUrl = config.siteUrl?.trim() || undefined
    this.appName = config.appName?.trim() || undefined
    this.timeoutMs = positiveInteger(config.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs')
    this.maxInFlight = positiveInteger(config.maxInFlight, DEFAULT_MAX_IN_FLIGHT, 'maxInFlight')
    this.maxRetries = positiveInteger(config.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries', 0)
    this.fetchImpl = config.fetch ?? ((input, init) => fetch(input, init))
    this.limit = pLimit(this.maxInFlight)
  }

  /** Why this client can never succeed (no key, a key without the vendor prefix), before any request. */
  get keyProblem(): GatewayError | undefined {
    if (!this.apiKey) return new GatewayError({ code: 'missing_key', reason: 'no API key configured' })
    if (!this.apiKey.startsWith(API_KEY_PREFIX)) {
      return new GatewayError({ code: 'invalid_key_format', reason: `invalid API key (gateway keys start with "${API_KEY_PREFIX}")` })
    }
    return undefined
  }

  /** One model, one user message in, `choices[0].message.content` out (retried once after a 429 or 408). */
  async complete(request: GenerateTextRequest): Promise<GenerationResult> {
    const { signal, ...rest } = request
    const parsed = generateTextRequestSchema.safeParse(rest)
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`)
      throw new GatewayError({ code: 'invalid_request', reason: `invalid request (${detail.join('; ')})` })
    }
    const { prompt, model: requestedModel, ...sampling } = parsed.data
    const model = requestedModel ?? this.models[0]
    // One model per request: no `models`, and so no `route: "fallback"` (see the note at the top).
    const body = { model, messages: [{ role: 'user', content: prompt }], ...sampling, transforms: ['middle-out'] }
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
   * Walks the chain (the given models, else the configured ones); the first success wins and
   * carries the failures before it. A bad key, a refused request or the caller's abort stops at
   * once; after a 402 only `:free` models are tried, after the daily free cap no `:free` model
   * is. When every model fails, throws AllModelsFailedError naming each model's reason.
   */
  async generate(request: GenerateTextRequest, models: readonly string[] = this.models): Promise<GenerationResult> {
    const candidates = [...new Set(models.map((model) => model.trim()).filter(Boolean))]
    if (candidates.length === 0) candidates.push(...this.models)
    const failures: ModelFailure[] = []
    let paidModelsRefused = false
    let freeModelsCapped = false
    for (const model of candidates) {
      const free = isFreeModel(model)
      if ((paidModelsRefused && !free) || (freeModelsCapped && free)) {
        const reason = free ? 'skipped: the daily free-model limit is reached' : 'skipped: no credits left for paid models'
        failures.push({ model, error: new GatewayError({ code: 'skipped', reason, model }) })
        continue
      }
      try {
        return { ...(await this.complete({ ...request, model })), failures }
      } catch (error) {
        const gatewayError = asGatewayError(error).withModel(model)
        if (STOPS_FALLBACK.has(gatewayError.code)) throw gatewayError
        failures.push({ model, error: gatewayError })
        if (gatewayError.code === 'insufficient_credits') paidModelsRefused = true
        if (gatewayError.code === 'daily_limit') freeModelsCapped = true
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

  /**
   * One deadline (timeoutMs) from the moment the call is queued: the wait for a slot, the
   * request and a retry's wait all count, so a full queue cannot stretch it. Each attempt takes
   * one of the client's slots.
   */
  private async send<T>(call: Call<T>): Promise<T> {
    const keyProblem = this.keyProblem
    if (keyProblem) throw keyProblem
    const deadline = startDeadline(this.timeoutMs, call.signal)
    const timed: TimedCall<T> = { ...call, deadline, signal: deadline.signal }
    for (let attempt = 1; ; attempt++) {
      try {
        return await untilAborted(
          this.limit(() => this.attempt(timed)),
          timed,
          () => this.stopped(timed, undefined),
        )
      } catch (error) {
        const gatewayError = asGatewayError(error, call.model)
        gatewayError.attempts = attempt
        if (!gatewayError.retryable || attempt > this.maxRetries) throw gatewayError
        const wait = Math.max(MIN_RETRY_WAIT_MS, gatewayError.retryAfterMs ?? 0)
        // A wait past the deadline would only end in a timeout: give the next model the time.
        if (Date.now() + wait >= timed.deadline.at) throw gatewayError
        try {
          await sleep(wait, timed.signal)
        } catch (reason) {
          throw this.stopped(timed, reason)
        }
      }
    }
  }

  /** The deadline passing is a timeout; the caller's signal is a cancel, or a timeout when it was one. */
  private stopped(call: TimedCall<unknown>, cause: unknown): GatewayError {
    const callerReason = call.signal.reason as unknown
    if (call.deadline.expired || isTimeout(callerReason)) {
      return new GatewayError({
        code: 'timeout',
        reason: call.deadline.expired ? `no answer within ${this.timeoutMs} ms` : 'no answer in the time allowed',
        model: call.model,
        cause: cause ?? callerReason,
      })
    }
    return new GatewayError({ code: 'aborted', reason: 'the request was cancelled', model: call.model, cause: cause ?? callerReason })
  }

  private async attempt<T>(call: TimedCall<T>): Promise<T> {
    // Its deadline may have passed while it waited for the slot: release the slot at once.
    if (call.signal.aborted) throw this.stopped(call, undefined)
    let response: Response
    let text: string
    try {
      response = await send(`${this.baseUrl}${call.path}`, {
        method: call.method,
        headers: this.headers(call.body !== undefined),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.signal,
        fetch: this.fetchImpl,
      })
      text = await response.text()
    } catch (error) {
      if (call.signal.aborted) throw this.stopped(call, error)
      if (error instanceof RedirectRefused) throw redirectError(error.status, call.model)
      throw new GatewayError({ code: 'network', reason: networkReason(error), model: call.model, cause: error })
    }
    const json = parseJson(text)
    if (statusClass(response.status) !== 'ok') throw errorFromResponse(response, json, text, call.model)
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

/** A queued call rejects as soon as its deadline passes or its caller aborts (its slot, when it comes, is released at once). */
function untilAborted<T>(promise: Promise<T>, call: TimedCall<unknown>, stopped: () => GatewayError): Promise<T> {
  const { signal } = call
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped())
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

const isTimeout = (reason: unknown) => reason instanceof DOMException && reason.name === 'TimeoutError'

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

/** The key goes in a header: a redirect is not followed, and says where the URL should point. */
const redirectError = (status: number, model?: string) =>
  new GatewayError({
    code: 'http_error',
    reason: 'redirected, which is not followed: set the gateway URL to the address it redirects to',
    status,
    statusText: statusTextOf(status, ''),
    model,
  })

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
    failures: [],
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
