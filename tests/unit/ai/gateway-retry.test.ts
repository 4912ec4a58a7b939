import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { GatewayClient, GatewayError, type GatewayConfig } from '@/ai/server/gateway'

import { reply, startFakeGateway, type FakeGateway } from '../../fakes/gateway'

// Real timers against the fake server: these tests measure actual waits.
let gateway: FakeGateway
beforeAll(async () => {
  gateway = await startFakeGateway()
})
afterAll(() => gateway.close())
afterEach(() => gateway.reset())

const client = (config: Partial<GatewayConfig> = {}) => new GatewayClient({ url: gateway.url, apiKey: 'sk-or-v1-retry', ...config })

const gaps = () => gateway.requests.slice(1).map((request, index) => request.receivedAt - gateway.requests[index].receivedAt)

describe('retries', () => {
  it('waits 1000 ms after a 429 without Retry-After, then succeeds', async () => {
    gateway.script(reply.rateLimited(), reply.success('after the wait'))
    const started = performance.now()
    await expect(client().complete({ prompt: 'p' })).resolves.toMatchObject({ content: 'after the wait' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)
    expect(gateway.requests).toHaveLength(2)
    expect(gaps()[0]).toBeGreaterThanOrEqual(950)
  })

  it('honours Retry-After in seconds', async () => {
    gateway.script(reply.rateLimited({ retryAfter: 2 }), reply.success('ok'))
    const started = performance.now()
    await client().complete({ prompt: 'p' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(1950)
    expect(gaps()[0]).toBeGreaterThanOrEqual(1950)
  })

  it('waits at least 1000 ms even when Retry-After asks for less', async () => {
    gateway.script(reply.rateLimited({ retryAfter: '0.2' }), reply.success('ok'))
    await client().complete({ prompt: 'p' })
    expect(gaps()[0]).toBeGreaterThanOrEqual(950)
  })

  it('retries a 429 once: a second 429 fails the model', async () => {
    gateway.script(reply.rateLimited({ retryAfter: 1, times: 3 }))
    const error = (await client().complete({ prompt: 'p' }).catch((reason: unknown) => reason)) as GatewayError
    expect(error).toBeInstanceOf(GatewayError)
    expect(error.code).toBe('rate_limited')
    expect(error.attempts).toBe(2)
    expect(gateway.requests).toHaveLength(2)
  })

  it('retries 408 once, and never 5xx or 400 (the chain moves on instead)', async () => {
    gateway.script(reply.error(408), reply.success('second time'))
    await expect(client().complete({ prompt: 'p' })).resolves.toMatchObject({ content: 'second time' })
    for (const status of [400, 500, 502, 503]) {
      gateway.reset()
      gateway.script(reply.error(status, { times: 3 }))
      await expect(client().complete({ prompt: 'p' })).rejects.toThrow(String(status))
      expect(gateway.requests).toHaveLength(1)
    }
  })

  it('does not retry the daily free-tier cap', async () => {
    gateway.script(reply.dailyCap({ times: 5 }))
    const started = performance.now()
    const error = (await client().complete({ prompt: 'p' }).catch((reason: unknown) => reason)) as GatewayError
    expect(error.code).toBe('daily_limit')
    expect(error.retryable).toBe(false)
    expect(error.message).toContain('429 Too Many Requests')
    expect(error.message).toContain('free-models-per-day')
    expect(error.reason).toMatch(/daily free-model limit reached until \d{4}-/)
    expect(gateway.requests).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(900)
  })

  it('fails rather than wait for a Retry-After beyond its deadline', async () => {
    gateway.script(reply.rateLimited({ retryAfter: 3600 }))
    const error = (await client().complete({ prompt: 'p' }).catch((reason: unknown) => reason)) as GatewayError
    expect(error.code).toBe('rate_limited')
    expect(error.retryAfterMs).toBe(3_600_000)
    expect(gateway.requests).toHaveLength(1)
  })

  it('lets other calls use the slots while one waits to retry', async () => {
    gateway.script(reply.rateLimited({ model: 'slow/model' }), reply.success('ok', { times: Infinity }))
    const shared = client({ maxInFlight: 1 })
    const started = performance.now()
    const waiting = shared.complete({ prompt: 'p', model: 'slow/model' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    await shared.complete({ prompt: 'p', model: 'fast/model' })
    expect(performance.now() - started).toBeLessThan(900)
    await waiting
  })
})
