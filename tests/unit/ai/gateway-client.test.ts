import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { FREE_DEFAULT_MODEL, GatewayClient, GatewayError, type GatewayConfig } from '@/ai/server/gateway'

import { reply, startFakeGateway, type FakeGateway } from '../../fakes/gateway'

const KEY = 'sk-or-v1-test-0123456789abcdef'

let gateway: FakeGateway
beforeAll(async () => {
  gateway = await startFakeGateway()
})
afterAll(() => gateway.close())
afterEach(() => gateway.reset())

const client = (config: Partial<GatewayConfig> = {}) =>
  new GatewayClient({ url: gateway.url, apiKey: KEY, siteUrl: 'https://city.example', appName: 'City Dashboard', ...config })

const failure = async (promise: Promise<unknown>): Promise<GatewayError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(GatewayError)
  return error as GatewayError
}

describe('gateway client: request', () => {
  it('sends one user message with the headers and body defaults and returns the content', async () => {
    gateway.script(reply.success('A draft.'))
    const { content } = await client({ model: 'openai/gpt-4o-mini' }).complete({ prompt: 'Write something' })
    expect(content).toBe('A draft.')
    expect(gateway.requests).toHaveLength(1)
    const [request] = gateway.requests
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/api/v1/chat/completions')
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.headers['http-referer']).toBe('https://city.example')
    expect(request.headers['x-title']).toBe('City Dashboard')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.body).toEqual({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'Write something' }],
      max_tokens: 500,
      temperature: 0.7,
      transforms: ['middle-out'],
    })
  })

  it('passes the optional sampling settings and a per-request model; defaults to a free model', async () => {
    await client().complete({ prompt: 'p', top_p: 0.9, frequency_penalty: 0.5, presence_penalty: -0.5, max_tokens: 50, temperature: 0 })
    await client().complete({ prompt: 'p', model: 'x/y' })
    const [first, second] = gateway.requests.map((request) => request.body as Record<string, unknown>)
    expect(first).toMatchObject({ model: FREE_DEFAULT_MODEL, top_p: 0.9, frequency_penalty: 0.5, presence_penalty: -0.5, max_tokens: 50, temperature: 0 })
    expect(FREE_DEFAULT_MODEL).toMatch(/:free$/)
    expect(second.model).toBe('x/y')
    expect(second).not.toHaveProperty('top_p')
  })

  it('omits HTTP-Referer and X-Title when not configured and accepts a url ending in /api/v1', async () => {
    await new GatewayClient({ url: `${gateway.url}/api/v1/`, apiKey: KEY }).complete({ prompt: 'p' })
    expect(gateway.requests[0].path).toBe('/api/v1/chat/completions')
    expect(gateway.requests[0].headers).not.toHaveProperty('http-referer')
    expect(gateway.requests[0].headers).not.toHaveProperty('x-title')
  })

  it('refuses out-of-range settings before any request', async () => {
    const error = await failure(client().complete({ prompt: 'p', temperature: 3 }))
    expect(error.code).toBe('invalid_request')
    expect(gateway.requests).toHaveLength(0)
  })
})

describe('gateway client: key check', () => {
  it('rejects a key without the sk-or- prefix before any request', async () => {
    const error = await failure(client({ apiKey: 'sk-proj-abc123' }).complete({ prompt: 'p' }))
    expect(error.code).toBe('invalid_key_format')
    // The hint is readable: the bare prefix is not taken for a key and redacted.
    expect(error.reason).toBe('invalid API key (gateway keys start with "sk-or-")')
    expect(error.message).toContain('invalid API key (gateway keys start with "sk-or-")')
    expect(error.message).not.toContain('abc123')
    await expect(client({ apiKey: 'nope' }).listModels()).rejects.toThrow(/invalid API key/)
    await expect(client({ apiKey: undefined }).keyInfo()).rejects.toThrow(/no API key/)
    expect(gateway.requests).toHaveLength(0)
  })
})

describe('gateway client: errors', () => {
  it.each([
    [400, 'Bad Request', 'unknown_model', 'is not a valid model ID'],
    [401, 'Unauthorized', 'invalid_key', 'User not found.'],
    [402, 'Payment Required', 'insufficient_credits', 'Insufficient credits'],
    [403, 'Forbidden', 'moderation', 'requires moderation'],
    [404, 'Not Found', 'no_endpoints', 'No endpoints found for'],
  ] as const)('%i: the message carries the status text and the gateway message; not retried', async (status, statusText, code, gatewayText) => {
    gateway.script(reply.error(status, { times: 5 }))
    const error = await failure(client().complete({ prompt: 'p' }))
    expect(error.status).toBe(status)
    expect(error.code).toBe(code)
    expect(error.message).toContain(`${status} ${statusText}`)
    expect(error.message).toContain(gatewayText)
    expect(gateway.requests).toHaveLength(1)
  })

  it('names an invalid key and the moderation reasons', async () => {
    gateway.script(reply.error(401), reply.error(403), reply.error(402))
    expect((await failure(client().complete({ prompt: 'p' }))).reason).toBe('invalid API key')
    expect((await failure(client().complete({ prompt: 'p' }))).reason).toContain('harassment')
    expect((await failure(client().complete({ prompt: 'p' }))).reason).toContain(':free')
  })

  it('treats a 200 carrying an error as a failure', async () => {
    gateway.script(reply.errorIn200({ code: 'server_error', message: 'Something broke upstream' }))
    const error = await failure(client().complete({ prompt: 'p' }))
    expect(error.code).toBe('upstream_error')
    expect(error.message).toContain('200 OK')
    expect(error.message).toContain('Something broke upstream')

    gateway.script(reply.errorIn200({ inChoice: true, code: 400, message: 'Provider rejected the prompt' }))
    const inChoice = await failure(client().complete({ prompt: 'p' }))
    expect(inChoice.message).toContain('Provider rejected the prompt')
  })

  it('treats empty or missing content as a failure', async () => {
    gateway.script(reply.success(''), reply.success(null), reply.success('   '))
    for (let i = 0; i < 3; i++) expect((await failure(client().complete({ prompt: 'p' }))).code).toBe('empty_content')
  })

  it('falls back to the status text when the body is not JSON', async () => {
    gateway.script(reply.raw(502, '<html><body>Bad gateway</body></html>', { contentType: 'text/html' }))
    const error = await failure(client().complete({ prompt: 'p' }))
    expect(error.message).toContain('502 Bad Gateway')
    expect(error.message).not.toContain('<html>')
  })

  it('never puts the key into a message', async () => {
    gateway.script(reply.error(401, { message: `Key ${KEY} not found` }))
    const error = await failure(client().complete({ prompt: 'p' }))
    expect(error.message).not.toContain(KEY)
    expect(error.message).toContain('sk-or-***')
  })
})

describe('gateway client: limits and timeouts', () => {
  it('keeps at most 3 requests in flight under 20 concurrent calls', async () => {
    gateway.script(reply.success('ok', { delayMs: 60, times: Infinity }))
    const shared = client()
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => shared.complete({ prompt: `p${i}` })))
    expect(results).toHaveLength(20)
    expect(gateway.requests).toHaveLength(20)
    expect(gateway.maxInFlight).toBe(3)
  })

  it('honours maxInFlight per client instance', async () => {
    gateway.script(reply.success('ok', { delayMs: 40, times: Infinity }))
    const single = client({ maxInFlight: 1 })
    await Promise.all(Array.from({ length: 5 }, () => single.complete({ prompt: 'p' })))
    expect(gateway.maxInFlight).toBe(1)
  })

  it('times out a slow answer', async () => {
    gateway.script(reply.success('late', { delayMs: 3000 }))
    const started = performance.now()
    const error = await failure(client({ timeoutMs: 200 }).complete({ prompt: 'p' }))
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/200 ms/)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(gateway.requests).toHaveLength(1)
  })

  it("stops on the caller's abort signal", async () => {
    gateway.script(reply.success('late', { delayMs: 3000 }))
    const controller = new AbortController()
    const pending = client().complete({ prompt: 'p', signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    expect((await failure(pending)).code).toBe('aborted')
  })

  it('does not follow a redirect (the key is in a header), and says so', async () => {
    gateway.script(reply.raw(307, '', { headers: { location: `${gateway.url}/elsewhere` } }))
    const error = await failure(client().complete({ prompt: 'p' }))
    expect(error).toMatchObject({ code: 'http_error', status: 307, statusText: 'Temporary Redirect', retryable: false })
    expect(error.reason).toMatch(/redirected, which is not followed/)
    expect(gateway.requests.map((request) => request.path)).toEqual(['/api/v1/chat/completions'])
  })
})

describe('gateway client: models and key', () => {
  it('lists models with prices and marks free ones', async () => {
    const models = await client().listModels()
    expect(gateway.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/models' })
    expect(gateway.requests[0].headers.authorization).toBe(`Bearer ${KEY}`)
    expect(models.find((model) => model.id === 'openai/gpt-4o-mini')).toMatchObject({
      contextLength: 128000,
      pricing: { prompt: '0.00000015', completion: '0.0000006' },
      maxCompletionTokens: 16384,
      isFree: false,
    })
    expect(models.find((model) => model.id.endsWith(':free'))?.isFree).toBe(true)
  })

  it('reads the key information and falls back to the legacy path on 404', async () => {
    const info = await client().keyInfo()
    expect(info).toMatchObject({ limit: null, usage: 0, isFreeTier: true })
    expect(info.label).toMatch(/^sk-or-v1-/)
    gateway.reset()
    gateway.script(reply.error(404, { path: '/api/v1/key', message: 'Not Found' }))
    await client().keyInfo()
    expect(gateway.requests.map((request) => request.path)).toEqual(['/api/v1/key', '/api/v1/auth/key'])
  })

  it('reports a bad key on /key as invalid', async () => {
    const strict = await startFakeGateway({ validKeys: ['sk-or-v1-good'] })
    try {
      const error = await failure(new GatewayClient({ url: strict.url, apiKey: 'sk-or-v1-bad' }).keyInfo())
      expect(error.status).toBe(401)
      expect(error.reason).toBe('invalid API key')
    } finally {
      await strict.close()
    }
  })
})
