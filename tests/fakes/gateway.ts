/**
 * A local fake of the OpenRouter-compatible model gateway (its API as docs/ai-helper.md describes it) on
 * node:http. Tests script answers per call or per model and read back what was sent.
 *
 *   const gateway = await startFakeGateway()
 *   gateway.script(reply.rateLimited(), reply.success('Hi'))           // next two calls
 *   gateway.script({ ...reply.error(404), model: 'a/b' })             // only calls for a/b
 *   gateway.script({ ...reply.success('slow'), delayMs: 500, times: Infinity })
 *   … gateway.requests, gateway.maxInFlight … await gateway.close()
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const CHAT_PATH = '/api/v1/chat/completions'

export type RecordedRequest = {
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
  receivedAt: number
}

type StepOptions = {
  /** Answer only calls for this model (chat completions). */
  model?: string
  /** Answer only chat completions whose prompt contains this text. */
  promptIncludes?: string
  /** Answer only this path (default: chat completions). */
  path?: string
  /** How many calls this step answers (default 1; Infinity = every matching call). */
  times?: number
  /** Wait before answering (the request stays in flight). */
  delayMs?: number
  headers?: Record<string, string>
}

export type FakeStep = StepOptions &
  (
    | { kind: 'success'; content: string | null; servedModel?: string; finishReason?: string }
    | {
        kind: 'error'
        status: number
        message?: string
        code?: number | string
        metadata?: Record<string, unknown>
        /** Sent as the Retry-After header. */
        retryAfter?: string | number
      }
    | { kind: 'error-200'; code?: number | string; message?: string; inChoice?: boolean }
    | { kind: 'raw'; status: number; body: string; contentType?: string }
  )

export type FakeGatewayOptions = {
  port?: number
  /** When set, other bearer keys get 401 "User not found.". */
  validKeys?: string[]
  /** When set, other models get 400 "<id> is not a valid model ID". */
  knownModels?: string[]
  /** What /api/v1/models lists. */
  models?: Array<Record<string, unknown>>
  /** What /api/v1/key answers in `data`. */
  keyData?: Record<string, unknown>
  /** Answer when no scripted step matches (default: success "Hello!"). */
  defaultStep?: FakeStep
}

export type FakeGateway = {
  url: string
  requests: RecordedRequest[]
  /** Chat completion requests only. */
  readonly chatRequests: RecordedRequest[]
  readonly inFlight: number
  readonly maxInFlight: number
  script: (...steps: FakeStep[]) => void
  /** Forgets requests, steps and the in-flight maximum. */
  reset: () => void
  close: () => Promise<void>
}

/** The documented error body of each status (docs/ai-helper.md). */
export function documentedError(status: number, model = 'openai/gpt-4o-mini'): { code: number; message: string; metadata?: Record<string, unknown> } {
  switch (status) {
    case 400:
      return { code: 400, message: `${model} is not a valid model ID` }
    case 401:
      return { code: 401, message: 'User not found.' }
    case 402:
      return { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits' }
    case 403:
      return {
        code: 403,
        message: `${model} requires moderation on OpenAI. Your input was flagged for "harassment".`,
        metadata: { reasons: ['harassment'], flagged_input: 'flagged text', provider_name: 'OpenAI', model_slug: model },
      }
    case 404:
      return { code: 404, message: `No endpoints found for ${model}.` }
    case 408:
      return { code: 408, message: 'Request timed out' }
    case 429:
      return { code: 429, message: `${model} is temporarily rate-limited upstream. Please retry shortly.` }
    case 502:
      return { code: 502, message: 'Provider returned error', metadata: { provider_name: 'FakeProvider', raw: 'upstream exploded' } }
    case 503:
      return { code: 503, message: 'No instances available', metadata: { provider_name: 'FakeProvider' } }
    default:
      return { code: status, message: STATUS_CODES[status] ?? 'Error' }
  }
}

const nextMidnightUtc = () => {
  const now = new Date()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
}

/** Step builders. */
export const reply = {
  success: (content: string | null, options: StepOptions & { servedModel?: string; finishReason?: string } = {}): FakeStep => ({
    kind: 'success',
    content,
    ...options,
  }),
  error: (
    status: number,
    options: StepOptions & { message?: string; code?: number | string; metadata?: Record<string, unknown>; retryAfter?: string | number } = {},
  ): FakeStep => ({ kind: 'error', status, ...options }),
  /** 429 (per-minute limit), optionally with Retry-After (seconds or HTTP date). */
  rateLimited: (options: StepOptions & { retryAfter?: string | number } = {}): FakeStep => ({
    kind: 'error',
    status: 429,
    ...options,
    headers: {
      'X-RateLimit-Limit': '20',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.now() + 60_000),
      ...options.headers,
    },
  }),
  /** The daily free-tier cap: 429 `free-models-per-day`, which retrying does not clear. */
  dailyCap: (options: StepOptions = {}): FakeStep => {
    const reset = String(nextMidnightUtc())
    const headers = { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset }
    return {
      kind: 'error',
      status: 429,
      message: 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day',
      metadata: { headers, provider_name: null },
      ...options,
      headers: { ...headers, ...options.headers },
    }
  },
  /** A 200 whose body is only `{error}` (or, with inChoice, a choice with finish_reason "error"). */
  errorIn200: (options: StepOptions & { code?: number | string; message?: string; inChoice?: boolean } = {}): FakeStep => ({
    kind: 'error-200',
    ...options,
  }),
  /** What a proxy or the CDN in front of the gateway sends: an HTML error page, not JSON. */
  htmlPage: (status = 502, options: StepOptions = {}): FakeStep => ({
    kind: 'raw',
    status,
    body: `<!DOCTYPE html><html><head><title>${status} ${STATUS_CODES[status] ?? 'Error'}</title></head><body><h1>${status}</h1><p>The upstream server returned an invalid response.</p></body></html>`,
    contentType: 'text/html; charset=utf-8',
    ...options,
  }),
  /** A model that answers after the caller's deadline: the request stays in flight. */
  slow: (delayMs: number, options: StepOptions = {}): FakeStep => ({ kind: 'success', content: 'too late', delayMs, ...options }),
  raw: (status: number, body: string, options: StepOptions & { contentType?: string } = {}): FakeStep => ({
    kind: 'raw',
    status,
    body,
    ...options,
  }),
}

const DEFAULT_MODELS: Array<Record<string, unknown>> = [
  {
    id: 'openai/gpt-4o-mini',
    name: 'GPT-4o mini',
    context_length: 128000,
    pricing: { prompt: '0.00000015', completion: '0.0000006' },
    top_provider: { max_completion_tokens: 16384 },
  },
  {
    id: 'meta-llama/llama-3.3-70b-instruct:free',
    name: 'Llama 3.3 70B Instruct (free)',
    context_length: 131072,
    pricing: { prompt: '0', completion: '0' },
    top_provider: { max_completion_tokens: null },
  },
]

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (response.destroyed || response.writableEnded) return
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

export async function startFakeGateway(options: FakeGatewayOptions = {}): Promise<FakeGateway> {
  const requests: RecordedRequest[] = []
  let steps: Array<FakeStep & { remaining: number }> = []
  let inFlight = 0
  let maxInFlight = 0
  let generation = 0

  const takeStep = (path: string, model: string | undefined, prompt = ''): FakeStep | undefined => {
    const index = steps.findIndex(
      (step) =>
        (step.path ?? CHAT_PATH) === path &&
        (step.model === undefined || step.model === model) &&
        (step.promptIncludes === undefined || prompt.includes(step.promptIncludes)),
    )
    if (index === -1) return undefined
    const step = steps[index]
    step.remaining -= 1
    if (step.remaining <= 0) steps.splice(index, 1)
    return step
  }

  const waitOrClosed = (ms: number, response: ServerResponse) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        response.off('close', done)
        resolve()
      }
      response.once('close', done)
    })

  const answer = (step: FakeStep, response: ServerResponse, model: string) => {
    const headers: Record<string, string> = { ...step.headers }
    switch (step.kind) {
      case 'success': {
        generation += 1
        sendJson(
          response,
          200,
          {
            id: `gen-${generation}`,
            provider: 'FakeProvider',
            model: step.servedModel ?? model,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            choices: [
              {
                index: 0,
                finish_reason: step.finishReason ?? 'stop',
                native_finish_reason: step.finishReason ?? 'stop',
                message: { role: 'assistant', content: step.content },
              },
            ],
            usage: { prompt_tokens: 21, completion_tokens: 3, total_tokens: 24 },
          },
          headers,
        )
        return
      }
      case 'error': {
        const documented = documentedError(step.status, model)
        if (step.retryAfter !== undefined) headers['Retry-After'] = String(step.retryAfter)
        const metadata = step.metadata ?? documented.metadata
        sendJson(
          response,
          step.status,
          {
            error: { code: step.code ?? documented.code, message: step.message ?? documented.message, ...(metadata ? { metadata } : {}) },
            user_id: 'user_fake',
          },
          headers,
        )
        return
      }
      case 'error-200': {
        const error = { code: step.code ?? 502, message: step.message ?? 'Provider returned error' }
        const body = step.inChoice
          ? {
              id: 'gen-error',
              model,
              object: 'chat.completion',
              choices: [{ index: 0, finish_reason: 'error', message: { role: 'assistant', content: '' }, error }],
            }
          : { error, user_id: 'user_fake' }
        sendJson(response, 200, body, headers)
        return
      }
      case 'raw':
        if (response.destroyed) return
        response.writeHead(step.status, { 'Content-Type': step.contentType ?? 'text/plain', ...headers })
        response.end(step.body)
        return
    }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname
    const text = await readBody(request)
    let body: unknown = text
    if (text !== '') {
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    requests.push({ method: request.method ?? 'GET', path, headers, body, receivedAt: Date.now() })

    const authorization = headers.authorization ?? ''
    if (!authorization.startsWith('Bearer ') || authorization.slice(7).trim() === '') {
      sendJson(response, 401, { error: { code: 401, message: 'No auth credentials found' } })
      return
    }
    if (options.validKeys && !options.validKeys.includes(authorization.slice(7).trim())) {
      sendJson(response, 401, { error: { code: 401, message: 'User not found.' } })
      return
    }

    if (path === CHAT_PATH && request.method === 'POST') {
      const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined
      const model = record?.model
      if (typeof model !== 'string' || !Array.isArray(record?.messages)) {
        sendJson(response, 400, { error: { code: 400, message: 'Input required: specify "model" and "messages"' } })
        return
      }
      if (options.knownModels && !options.knownModels.includes(model)) {
        sendJson(response, 400, { error: documentedError(400, model) })
        return
      }
      const prompt = (record.messages as Array<{ content?: unknown }>).map((message) => String(message?.content ?? '')).join('\n')
      const step = takeStep(path, model, prompt) ?? options.defaultStep ?? reply.success('Hello!')
      if (step.delayMs) await waitOrClosed(step.delayMs, response)
      answer(step, response, model)
      return
    }

    const scripted = takeStep(path, undefined)
    if (scripted) {
      if (scripted.delayMs) await waitOrClosed(scripted.delayMs, response)
      answer(scripted, response, '')
      return
    }
    if (request.method === 'GET' && path === '/api/v1/models') {
      sendJson(response, 200, { data: options.models ?? DEFAULT_MODELS })
      return
    }
    if (request.method === 'GET' && (path === '/api/v1/key' || path === '/api/v1/auth/key')) {
      const key = authorization.slice(7).trim()
      const label = `${key.slice(0, 12)}...${key.slice(-3)}`
      sendJson(response, 200, { data: { label, limit: null, usage: 0, is_free_tier: true, ...options.keyData } })
      return
    }
    sendJson(response, 404, { error: { code: 404, message: 'Not Found' } })
  }

  const server = createServer((request, response) => {
    inFlight += 1
    maxInFlight = Math.max(maxInFlight, inFlight)
    let counted = true
    // 'finish' (the answer is handed to the socket) comes before the client can read it; 'close' covers aborts.
    const done = () => {
      if (counted) inFlight -= 1
      counted = false
    }
    response.once('finish', done)
    response.once('close', done)
    handle(request, response).catch((error: unknown) => {
      sendJson(response, 500, { error: { code: 500, message: error instanceof Error ? error.message : 'fake failed' } })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get chatRequests() {
      return requests.filter((request) => request.path === CHAT_PATH)
    },
    get inFlight() {
      return inFlight
    },
    get maxInFlight() {
      return maxInFlight
    },
    script: (...newSteps: FakeStep[]) => {
      for (const step of newSteps) steps.push({ ...step, remaining: step.times ?? 1 })
    },
    reset: () => {
      requests.length = 0
      steps = []
      maxInFlight = inFlight
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A port nothing listens on (bound, then released), for "gateway down" tests. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
