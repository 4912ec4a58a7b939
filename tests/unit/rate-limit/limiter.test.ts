import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'

import { createRateLimiter, rateLimitHeaders, type RateLimiter, type RateLimiterOptions } from '@/rate-limit'

import { closeClients, DOWN_REDIS_URL, REDIS_URL, countKeys, deleteKeys, openClient, sleep, uniquePrefix } from '../cache/redisTest'

const runPrefix = uniquePrefix('rl')
let testNumber = 0

const quietLogger = () => ({ warn: vi.fn<(message: string) => void>() })

/** A limiter on its own Redis connection when `redisUrl` is given, as each replica has one. */
function limiter({ redisUrl, ...options }: Partial<RateLimiterOptions> & Pick<RateLimiterOptions, 'keyPrefix'> & { redisUrl?: string }): RateLimiter {
  return createRateLimiter({ points: 3, durationSeconds: 60, logger: quietLogger(), redis: redisUrl ? openClient(redisUrl) : undefined, ...options })
}

afterEach(closeClients)

afterAll(async () => {
  await deleteKeys(runPrefix)
})

describe.each([
  { name: 'memory', redisUrl: undefined },
  { name: 'redis', redisUrl: REDIS_URL },
])('$name limiter', ({ name, redisUrl }) => {
  const prefix = () => {
    testNumber += 1
    return `${runPrefix}${testNumber}`
  }

  it('allows up to the limit, then refuses with a retry delay', async () => {
    const rl = limiter({ keyPrefix: prefix(), redisUrl })
    expect(rl.kind).toBe(name)
    const results = []
    for (let i = 0; i < 5; i += 1) results.push(await rl.consume('203.0.113.7'))
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ])
    expect(results[0]).toMatchObject({ retryAfterSeconds: 0, limit: 3 })
    for (const refused of results.slice(3)) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59)
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
      expect(refused.resetSeconds).toBe(refused.retryAfterSeconds)
    }
  })

  it('counts clients separately', async () => {
    const rl = limiter({ keyPrefix: prefix(), redisUrl, points: 1 })
    expect((await rl.consume('a')).allowed).toBe(true)
    expect((await rl.consume('a')).allowed).toBe(false)
    expect((await rl.consume('b')).allowed).toBe(true)
  })

  it('charges a cost and opens again after the window', async () => {
    const rl = limiter({ keyPrefix: prefix(), redisUrl, points: 5, durationSeconds: 1 })
    expect(await rl.consume('k', 4)).toMatchObject({ allowed: true, remaining: 1 })
    const refused = await rl.consume('k', 2)
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
    await sleep(1_100)
    expect(await rl.consume('k', 2)).toMatchObject({ allowed: true, remaining: 3 })
  })

  it('never throws under concurrent load and lets exactly the budget through', async () => {
    const rl = limiter({ keyPrefix: prefix(), redisUrl, points: 10 })
    const results = await Promise.all(Array.from({ length: 40 }, () => rl.consume('burst')))
    expect(results.filter((r) => r.allowed)).toHaveLength(10)
  })
})

describe('replicas sharing Redis', () => {
  it('share one bucket per client', async () => {
    testNumber += 1
    const keyPrefix = `${runPrefix}${testNumber}`
    const a = limiter({ keyPrefix, redisUrl: REDIS_URL, points: 4 })
    const b = limiter({ keyPrefix, redisUrl: REDIS_URL, points: 4 })
    const outcomes = [await a.consume('client'), await b.consume('client'), await a.consume('client'), await b.consume('client')]
    expect(outcomes.map((r) => r.remaining)).toEqual([3, 2, 1, 0])
    expect(await b.consume('client')).toMatchObject({ allowed: false })
    expect(await a.consume('client')).toMatchObject({ allowed: false })
    expect(await countKeys(keyPrefix)).toBe(1)
  })
})

describe('Redis down', () => {
  it('falls back to in-memory limits, logs once, never throws', async () => {
    const logger = quietLogger()
    const rl = limiter({ keyPrefix: `${runPrefix}down`, redisUrl: DOWN_REDIS_URL, points: 2, logger })
    const started = Date.now()
    const results = []
    for (let i = 0; i < 4; i += 1) results.push(await rl.consume('x'))
    expect(results.map((r) => r.allowed)).toEqual([true, true, false, false])
    expect(results[3]?.retryAfterSeconds).toBeGreaterThan(0)
    expect(Date.now() - started).toBeLessThan(1_500)
    await sleep(300)
    expect(logger.warn).toHaveBeenCalledTimes(1)
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/^Redis rate limiter unavailable/)
  })
})

describe('options', () => {
  it('rejects nonsense', () => {
    expect(() => createRateLimiter({ points: 0, durationSeconds: 1, keyPrefix: 'x' })).toThrow(/points/)
    expect(() => createRateLimiter({ points: 1, durationSeconds: 0.5, keyPrefix: 'x' })).toThrow(/durationSeconds/)
    expect(() => createRateLimiter({ points: 1, durationSeconds: 1, keyPrefix: ' ' })).toThrow(/keyPrefix/)
  })
})

describe('rateLimitHeaders', () => {
  it('describes allowed and refused decisions', () => {
    expect(rateLimitHeaders({ allowed: true, retryAfterSeconds: 0, remaining: 4, limit: 5, resetSeconds: 60 })).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '4',
      'RateLimit-Reset': '60',
    })
    expect(rateLimitHeaders({ allowed: false, retryAfterSeconds: 12, remaining: 0, limit: 5, resetSeconds: 12 })).toMatchObject({
      'Retry-After': '12',
      'RateLimit-Remaining': '0',
    })
  })
})
