import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { AllModelsFailedError, GatewayClient, GatewayError, type GatewayConfig, type GenerationResult } from '@/ai/server/gateway'

import { reply, startFakeGateway, type FakeGateway, type FakeStep } from '../../fakes/gateway'

// The model chain against the fake gateway, one row of issue #11 point 2 per test.
const KEY = 'sk-or-v1-chain-secret'

let gateway: FakeGateway
beforeAll(async () => {
  gateway = await startFakeGateway()
})
afterAll(() => gateway.close())
afterEach(async () => {
  // Requests a deadline abandoned are closed by the fake a moment later: count none of them in the next test.
  await vi.waitUntil(() => gateway.inFlight === 0, { timeout: 2000 })
  gateway.reset()
})

const client = (config: Partial<GatewayConfig> = {}) => new GatewayClient({ url: gateway.url, apiKey: KEY, ...config })
const asked = () => gateway.chatRequests.map((request) => (request.body as { model: string }).model)
const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}
const reasons = (result: GenerationResult) => result.failures.map(({ model, error }) => [model, error.reason])

describe('the model chain', () => {
  it('is GATEWAY_MODEL then the fallbacks, in order, each once', async () => {
    gateway.script(reply.error(404, { model: 'a/one' }), reply.error(404, { model: 'b/two' }))
    const chained = client({ model: 'a/one', fallbackModels: ['b/two', 'a/one', 'c/three'] })
    expect(chained.models).toEqual(['a/one', 'b/two', 'c/three'])
    const result = await chained.generate({ prompt: 'p' })
    expect(result).toMatchObject({ content: 'Hello!', model: 'c/three' })
    expect(asked()).toEqual(['a/one', 'b/two', 'c/three'])
  })

  it('sends one model per request: no `models` list, and so no `route: "fallback"`', async () => {
    gateway.script(reply.error(503, { model: 'a/one' }))
    await client({ model: 'a/one', fallbackModels: ['b/two:free'] }).generate({ prompt: 'Write', max_tokens: 50 })
    const bodies = gateway.chatRequests.map((request) => request.body as Record<string, unknown>)
    expect(bodies).toEqual([
      { model: 'a/one', messages: [{ role: 'user', content: 'Write' }], max_tokens: 50, temperature: 0.7, transforms: ['middle-out'] },
      { model: 'b/two:free', messages: [{ role: 'user', content: 'Write' }], max_tokens: 50, temperature: 0.7, transforms: ['middle-out'] },
    ])
    for (const body of bodies) {
      expect(body).not.toHaveProperty('models')
      expect(body).not.toHaveProperty('route')
    }
  })

  it('401 (invalid key): stops at once, no other model is asked', async () => {
    gateway.script(reply.error(401, { times: Infinity }))
    const error = await failureOf(client({ model: 'a/one', fallbackModels: ['b/two:free', 'c/three'] }).generate({ prompt: 'p' }))
    expect(error).toBeInstanceOf(GatewayError)
    expect((error as GatewayError).reason).toBe('invalid API key')
    expect(asked()).toEqual(['a/one'])
  })

  it('402 (no credits): goes on to the :free models only', async () => {
    gateway.script(reply.error(402, { model: 'a/paid' }))
    const result = await client({ model: 'a/paid', fallbackModels: ['b/paid', 'c/three:free'] }).generate({ prompt: 'p' })
    expect(result.model).toBe('c/three:free')
    expect(asked()).toEqual(['a/paid', 'c/three:free'])
    expect(reasons(result)).toEqual([
      ['a/paid', "insufficient credits; try a ':free' model"],
      ['b/paid', 'skipped: no credits left for paid models'],
    ])
  })

  it('429 free-models-per-day (no Retry-After): skips the other :free models, without waiting', async () => {
    gateway.script(reply.dailyCap({ model: 'a/one:free' }))
    const started = performance.now()
    const result = await client({ model: 'a/one:free', fallbackModels: ['b/two:free', 'c/paid'] }).generate({ prompt: 'p' })
    expect(performance.now() - started).toBeLessThan(900)
    expect(result.model).toBe('c/paid')
    expect(asked()).toEqual(['a/one:free', 'c/paid'])
    expect(reasons(result)[1]).toEqual(['b/two:free', 'skipped: the daily free-model limit is reached'])
  })

  it.each<[string, FakeStep, string]>([
    ['400 unknown model', reply.error(400, { model: 'a/one' }), 'unknown model'],
    ['404 no endpoints', reply.error(404, { model: 'a/one' }), 'no endpoint serves this model'],
    ['500', reply.error(500, { model: 'a/one' }), 'gateway server error'],
    ['502', reply.error(502, { model: 'a/one' }), 'the model provider returned an error'],
    ['503', reply.error(503, { model: 'a/one' }), 'the model is unavailable'],
    ['an HTML error page', reply.htmlPage(502, { model: 'a/one' }), 'the model provider returned an error'],
    ['an HTML page with 200', { ...reply.htmlPage(200), model: 'a/one' }, 'the gateway answered with something other than JSON'],
    ['a 200 whose body is an error', reply.errorIn200({ model: 'a/one', code: 'server_error' }), 'the gateway reported an error'],
    ['a choice with finish_reason "error"', reply.errorIn200({ model: 'a/one', inChoice: true, code: 502 }), 'the model provider returned an error'],
  ])('%s: the next model, without a retry', async (_, step, reason) => {
    gateway.script(step)
    const result = await client({ model: 'a/one', fallbackModels: ['b/two'] }).generate({ prompt: 'p' })
    expect(result).toMatchObject({ content: 'Hello!', model: 'b/two' })
    expect(asked()).toEqual(['a/one', 'b/two'])
    expect(reasons(result)).toEqual([['a/one', reason]])
  })

  it('429 with Retry-After: waits (at least 1000 ms) and retries that model once', async () => {
    gateway.script(reply.rateLimited({ model: 'a/one', retryAfter: '0.1' }))
    const result = await client({ model: 'a/one', fallbackModels: ['b/two'] }).generate({ prompt: 'p' })
    expect(result.model).toBe('a/one')
    expect(asked()).toEqual(['a/one', 'a/one'])
    const [first, second] = gateway.chatRequests
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950)
  })

  it('429 again after the retry: the next model', async () => {
    gateway.script(reply.rateLimited({ model: 'a/one', retryAfter: 1, times: 2 }))
    const result = await client({ model: 'a/one', fallbackModels: ['b/two'] }).generate({ prompt: 'p' })
    expect(result.model).toBe('b/two')
    expect(asked()).toEqual(['a/one', 'a/one', 'b/two'])
    expect(reasons(result)).toEqual([['a/one', 'rate limited']])
  })

  it('a timeout: the next model, logged as a timeout rather than a cancel', async () => {
    gateway.script(reply.slow(5000, { model: 'a/slow' }))
    const result = await client({ model: 'a/slow', fallbackModels: ['b/two'], timeoutMs: 300 }).generate({ prompt: 'p' })
    expect(result.model).toBe('b/two')
    expect(result.failures[0].error.code).toBe('timeout')
    expect(result.failures[0].error.message).toContain('no answer within 300 ms')
    expect(result.failures[0].error.message).not.toContain('cancelled')
  })

  it("a caller's timeout signal is a timeout too; a caller's abort is a cancel and stops the chain", async () => {
    gateway.script(reply.slow(5000, { times: Infinity }))
    const timedOut = await failureOf(client({ model: 'a/one' }).generate({ prompt: 'p', signal: AbortSignal.timeout(200) }))
    expect(timedOut).toBeInstanceOf(AllModelsFailedError)
    expect(timedOut.message).toContain('a/one: no answer in the time allowed')

    const controller = new AbortController()
    const pending = client({ model: 'a/one', fallbackModels: ['b/two'] }).generate({ prompt: 'p', signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    const cancelled = await failureOf(pending)
    expect((cancelled as GatewayError).code).toBe('aborted')
    expect(asked().filter((model) => model === 'b/two')).toHaveLength(0)
  })

  it('only when every model fails: "all AI models failed", each model with its reason in plain words', async () => {
    gateway.script(
      reply.error(404, { model: 'a/one' }),
      reply.error(402, { model: 'b/two' }),
      reply.dailyCap({ model: 'c/three:free' }),
    )
    const error = await failureOf(client({ model: 'a/one', fallbackModels: ['b/two', 'c/three:free', 'd/four:free', 'e/paid'] }).generate({ prompt: 'p' }))
    expect(error).toBeInstanceOf(AllModelsFailedError)
    expect(error.message).toBe(
      'all AI models failed: ' +
        'a/one: no endpoint serves this model (404 Not Found); ' +
        "b/two: insufficient credits; try a ':free' model (402 Payment Required); " +
        `c/three:free: ${(error as AllModelsFailedError).failures[2].error.reason} (429 Too Many Requests); ` +
        'd/four:free: skipped: the daily free-model limit is reached; ' +
        'e/paid: skipped: no credits left for paid models',
    )
    expect(asked()).toEqual(['a/one', 'b/two', 'c/three:free'])
  })

  it('a key without the vendor prefix: no request at all', async () => {
    const error = await failureOf(client({ apiKey: 'abc-123', model: 'a/one', fallbackModels: ['b/two'] }).generate({ prompt: 'p' }))
    expect((error as GatewayError).reason).toBe('invalid API key (gateway keys start with "sk-or-")')
    expect(error.message).not.toContain('abc-123')
    expect(gateway.requests).toHaveLength(0)
  })
})

describe('one deadline for the queue and the request', () => {
  it('20 concurrent calls to a slow model: at most 3 in flight, none waits longer than the deadline', async () => {
    gateway.script(reply.slow(10_000, { times: Infinity }))
    const deadline = 1000
    // Counted on the client's side: the fake notices an abandoned request only when its socket closes.
    let open = 0
    let mostOpen = 0
    const countingFetch: typeof fetch = async (input, init) => {
      mostOpen = Math.max(mostOpen, ++open)
      try {
        return await fetch(input, init)
      } finally {
        open -= 1
      }
    }
    const shared = client({ model: 'slow/model', timeoutMs: deadline, fetch: countingFetch })
    const settled = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const started = performance.now()
        const error = await failureOf(shared.generate({ prompt: 'p' }))
        return { error: error as AllModelsFailedError, waited: performance.now() - started }
      }),
    )
    for (const { error, waited } of settled) {
      expect(error.failures[0].error.code).toBe('timeout')
      // The deadline plus scheduling slack; were the queue outside it, the last calls would wait 7 deadlines.
      expect(waited).toBeLessThan(2 * deadline)
    }
    expect(mostOpen).toBeLessThanOrEqual(3)
    // Calls still queued when their deadline passed mostly never reached the gateway.
    expect(gateway.chatRequests.length).toBeLessThan(20)
  })

  it('a call queued behind slow ones still gets its answer when a slot frees in time', async () => {
    gateway.script(reply.slow(300, { model: 'slow/model', times: 3 }), reply.success('quick', { model: 'fast/model' }))
    const shared = client({ timeoutMs: 2000 })
    const slow = Array.from({ length: 3 }, () => shared.complete({ prompt: 'p', model: 'slow/model' }))
    const fast = shared.complete({ prompt: 'p', model: 'fast/model' })
    await expect(fast).resolves.toMatchObject({ content: 'quick' })
    await Promise.all(slow)
    expect(gateway.maxInFlight).toBe(3)
  })
})
