import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import {
  createCache,
  createMemoryCache,
  createRedisCache,
  decodeEntry,
  encodeEntry,
  SwrCache,
  type Cache,
  type CacheLogger,
} from '@/cache'

import { closeClients, DOWN_REDIS_URL, REDIS_URL, deleteKeys, openClient, sleep, uniquePrefix } from './redisTest'

const runPrefix = uniquePrefix('cache')
let testNumber = 0

type Backend = { name: 'memory' | 'redis'; create: (prefix: string, logger?: CacheLogger) => Cache }

const backends: Backend[] = [
  { name: 'memory', create: () => createMemoryCache({ maxEntries: 100 }) },
  { name: 'redis', create: (prefix, logger) => createRedisCache({ client: openClient(), keyPrefix: prefix, logger }) },
]

const quietLogger = () => ({ warn: vi.fn<(message: string) => void>() })

/** A controllable clock for freshness (the store's own TTLs stay in real time). */
function clock(start = 1_700_000_000_000) {
  let time = start
  return {
    now: () => time,
    advance: (seconds: number) => {
      time += seconds * 1000
    },
  }
}

/** A loader whose calls are counted, answering value-1, value-2… after an optional delay. */
function countingLoader(delayMs = 0) {
  let calls = 0
  const loader = vi.fn(async () => {
    calls += 1
    const value = `value-${calls}`
    if (delayMs > 0) await sleep(delayMs)
    return value
  })
  return loader
}

afterAll(async () => {
  await closeClients()
  await deleteKeys(runPrefix)
})

describe.each(backends)('$name cache', (backend) => {
  let cache: Cache
  let logger: ReturnType<typeof quietLogger>
  let prefix: string

  beforeEach(() => {
    testNumber += 1
    prefix = `${runPrefix}${testNumber}:`
    logger = quietLogger()
    cache = backend.create(prefix, logger)
  })

  afterEach(async () => {
    await cache.close()
  })

  describe('store', () => {
    it('misses, stores text with etag and meta, and deletes', async () => {
      expect(await cache.get('a')).toBeUndefined()
      await cache.set('a', { value: 'héllo', storedAt: 123, etag: 'W/"1"', meta: { status: 200, tags: ['x'] } }, 60)
      expect(await cache.get('a')).toEqual({ value: 'héllo', storedAt: 123, etag: 'W/"1"', meta: { status: 200, tags: ['x'] } })
      await cache.delete('a')
      expect(await cache.get('a')).toBeUndefined()
      expect(cache.kind).toBe(backend.name)
    })

    it('gives Buffers back as Buffers, text as text', async () => {
      const bytes = Buffer.from([0, 1, 2, 255, 254])
      await cache.set('bin', { value: bytes, storedAt: 1 }, 60)
      await cache.set('txt', { value: '', storedAt: 1 }, 60)
      const bin = await cache.get('bin')
      expect(Buffer.isBuffer(bin?.value)).toBe(true)
      expect(Buffer.compare(bin?.value as Buffer, bytes)).toBe(0)
      expect(await cache.get('txt')).toEqual({ value: '', storedAt: 1 })
    })

    it('hands out copies', async () => {
      await cache.set('m', { value: Buffer.from('abc'), storedAt: 1, meta: { n: 1 } }, 60)
      const first = await cache.get('m')
      ;(first?.value as Buffer)[0] = 0x7a
      if (first?.meta) first.meta.n = 2
      expect(await cache.get('m')).toEqual({ value: Buffer.from('abc'), storedAt: 1, meta: { n: 1 } })
    })

    it('expires entries after their TTL; a non-positive TTL deletes', async () => {
      await cache.set('short', { value: 'x', storedAt: 1 }, 0.15)
      await cache.set('long', { value: 'y', storedAt: 1 }, 60)
      expect(await cache.get('short')).toBeDefined()
      await sleep(250)
      expect(await cache.get('short')).toBeUndefined()
      await cache.set('long', { value: 'y', storedAt: 1 }, 0)
      expect(await cache.get('long')).toBeUndefined()
    })

    it('grants a lock to one holder at a time, until release or expiry', async () => {
      const lock = await cache.tryLock('k', 5_000)
      expect(lock).not.toBeNull()
      expect(await cache.tryLock('k', 5_000)).toBeNull()
      expect(await cache.tryLock('other', 5_000)).not.toBeNull()
      await lock?.release()
      await lock?.release()
      const again = await cache.tryLock('k', 150)
      expect(again).not.toBeNull()
      expect(await cache.tryLock('k', 150)).toBeNull()
      await sleep(250)
      const afterExpiry = await cache.tryLock('k', 5_000)
      expect(afterExpiry).not.toBeNull()
      // The expired holder releasing late must not free the new holder's lock.
      await again?.release()
      expect(await cache.tryLock('k', 5_000)).toBeNull()
    })

    it('extends a held lock past its first expiry, and never one it lost', async () => {
      const lock = await cache.tryLock('x', 150)
      await sleep(100)
      expect(await lock?.extend(300)).toBe(true)
      await sleep(120) // past the first 150 ms
      expect(await cache.tryLock('x', 5_000)).toBeNull()
      await sleep(250) // past the extension
      const next = await cache.tryLock('x', 5_000)
      expect(next).not.toBeNull()
      expect(await lock?.extend(5_000)).toBe(false)
      await next?.release()
      expect(await next?.extend(5_000)).toBe(false)
    })

    it('keeps a lock separate from the entry of the same key', async () => {
      await cache.set('k', { value: 'v', storedAt: 1 }, 60)
      const lock = await cache.tryLock('k', 5_000)
      expect(await cache.get('k')).toEqual({ value: 'v', storedAt: 1 })
      await lock?.release()
    })
  })

  describe('stale-while-revalidate', () => {
    it('loads on a miss, then serves fresh without calling the loader', async () => {
      const time = clock()
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 50, keepSeconds: 3600, now: time.now, logger })
      const loader = countingLoader()
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'value-1', state: 'miss', storedAt: time.now(), ageSeconds: 0 })
      time.advance(9)
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'value-1', state: 'fresh', ageSeconds: 9 })
      expect(loader).toHaveBeenCalledTimes(1)
    })

    it('serves stale at once and refreshes once in the background', async () => {
      const time = clock()
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 50, keepSeconds: 3600, now: time.now, logger })
      await swr.getOrLoad('k', countingLoader())
      time.advance(20)

      const loader = vi.fn(async () => {
        await sleep(100)
        return 'refreshed'
      })
      const results = await Promise.all(Array.from({ length: 10 }, () => swr.getOrLoad('k', loader)))
      expect(results.every((r) => r.state === 'stale' && r.value === 'value-1' && r.ageSeconds === 20)).toBe(true)
      await swr.idle()
      expect(loader).toHaveBeenCalledTimes(1)
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'refreshed', state: 'fresh', ageSeconds: 0 })
      expect(loader).toHaveBeenCalledTimes(1)
    })

    it('makes one loader call for 50 concurrent misses', async () => {
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      const loader = countingLoader(50)
      const results = await Promise.all(Array.from({ length: 50 }, () => swr.getOrLoad('hot', loader)))
      expect(loader).toHaveBeenCalledTimes(1)
      expect(new Set(results.map((r) => r.value))).toEqual(new Set(['value-1']))
      expect(results.every((r) => r.state === 'miss')).toBe(true)
    })

    it('keeps keys apart', async () => {
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      const [a, b] = await Promise.all([swr.getOrLoad('a', async () => 'A'), swr.getOrLoad('b', async () => 'B')])
      expect([a.value, b.value]).toEqual(['A', 'B'])
    })

    it('serves the last good value with stale-error when loading fails', async () => {
      const time = clock()
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 20, keepSeconds: 3600, now: time.now, logger })
      await swr.getOrLoad('k', async () => 'good')
      time.advance(600) // past fresh + stale, within keep
      const failure = new Error('upstream 500')
      const failing = vi.fn(async () => {
        throw failure
      })
      const results = await Promise.all([swr.getOrLoad('k', failing), swr.getOrLoad('k', failing)])
      for (const result of results) {
        expect(result).toMatchObject({ value: 'good', state: 'stale-error', ageSeconds: 600 })
        expect(result.error).toBe(failure)
      }
      expect(failing).toHaveBeenCalledTimes(1)
      // Recovery: the next successful load replaces it.
      expect(await swr.getOrLoad('k', async () => 'better')).toMatchObject({ value: 'better', state: 'miss' })
    })

    it('throws when loading fails and nothing was ever stored', async () => {
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      await expect(
        swr.getOrLoad('k', async () => {
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      // Nothing stuck: the next call loads.
      expect(await swr.getOrLoad('k', async () => 'ok')).toMatchObject({ value: 'ok', state: 'miss' })
    })

    it('keeps serving stale when the background refresh fails, and logs that once', async () => {
      const time = clock()
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 100, keepSeconds: 3600, now: time.now, logger })
      await swr.getOrLoad('k', async () => 'good')
      time.advance(30)
      const failing = vi.fn(async () => {
        throw new Error('upstream down')
      })
      for (let i = 0; i < 3; i += 1) {
        expect(await swr.getOrLoad('k', failing)).toMatchObject({ value: 'good', state: 'stale' })
        await swr.idle()
      }
      expect(failing).toHaveBeenCalledTimes(3)
      const refreshWarnings = logger.warn.mock.calls.filter(([message]) => message.includes('background refresh failed'))
      expect(refreshWarnings).toHaveLength(1)
      expect(refreshWarnings[0]?.[0]).toContain('upstream down')
    })

    it('drops the value when the store TTL (keepSeconds) runs out', async () => {
      const swr = new SwrCache<string>({ cache, freshSeconds: 0.05, staleSeconds: 0.05, keepSeconds: 0.2, logger })
      const loader = countingLoader()
      await swr.getOrLoad('k', loader)
      await sleep(300)
      const failing = async (): Promise<string> => {
        throw new Error('down')
      }
      await expect(swr.getOrLoad('k', failing)).rejects.toThrow('down')
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'value-2', state: 'miss' })
    })

    it('does not call the loader again during an error cool-down', async () => {
      const time = clock()
      const swr = new SwrCache<string>({
        cache,
        freshSeconds: 10,
        staleSeconds: 10,
        keepSeconds: 3600,
        errorCooldownSeconds: 30,
        now: time.now,
        logger,
      })
      await swr.getOrLoad('k', async () => 'good')
      time.advance(100)
      const failing = vi.fn(async (): Promise<string> => {
        throw new Error('429')
      })
      expect((await swr.getOrLoad('k', failing)).state).toBe('stale-error')
      time.advance(10)
      expect((await swr.getOrLoad('k', failing)).state).toBe('stale-error')
      expect(failing).toHaveBeenCalledTimes(1)
      time.advance(30)
      expect(await swr.getOrLoad('k', async () => 'back')).toMatchObject({ value: 'back', state: 'miss' })

      // Without a last-good value the cool-down repeats the error.
      await expect(swr.getOrLoad('new', failing)).rejects.toThrow('429')
      await expect(swr.getOrLoad('new', failing)).rejects.toThrow('429')
      expect(failing).toHaveBeenCalledTimes(2)
    })

    it('treats an undecodable entry as a miss', async () => {
      await cache.set('k', { value: '{not json', storedAt: Date.now() }, 60)
      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      expect(await swr.getOrLoad('k', async () => 'loaded')).toMatchObject({ value: 'loaded', state: 'miss' })
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('undecodable'))
    })

    it('round-trips structured values through JSON and custom codecs', async () => {
      const swr = new SwrCache<{ temperature: number; tags: string[] }>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      await swr.getOrLoad('j', async () => ({ temperature: 21.5, tags: ['a'] }))
      expect((await swr.getOrLoad('j', async () => ({ temperature: 0, tags: [] }))).value).toEqual({ temperature: 21.5, tags: ['a'] })

      const bytes = new SwrCache<Buffer>({
        cache,
        freshSeconds: 10,
        staleSeconds: 10,
        codec: { encode: (value) => value, decode: (raw) => (typeof raw === 'string' ? Buffer.from(raw) : raw) },
      })
      await bytes.getOrLoad('b', async () => Buffer.from([1, 2, 3]))
      const hit = await bytes.getOrLoad('b', async () => Buffer.alloc(0))
      expect(hit.state).toBe('fresh')
      expect([...hit.value]).toEqual([1, 2, 3])
    })

    it('rejects inconsistent windows', () => {
      expect(() => new SwrCache({ cache, freshSeconds: 10, staleSeconds: 10, keepSeconds: 5 })).toThrow(/keepSeconds/)
      expect(() => new SwrCache({ cache, freshSeconds: -1, staleSeconds: 10 })).toThrow()
    })
  })
})

describe('two replicas sharing Redis', () => {
  let caches: Cache[] = []
  let prefix: string
  const replica = () => {
    const cache = createRedisCache({ client: openClient(), keyPrefix: prefix, logger: quietLogger() })
    caches.push(cache)
    return cache
  }

  beforeEach(() => {
    testNumber += 1
    prefix = `${runPrefix}${testNumber}:`
  })

  afterEach(async () => {
    await Promise.all(caches.map((cache) => cache.close()))
    caches = []
  })

  it('see each other’s entries and locks', async () => {
    const [a, b] = [replica(), replica()]
    await a.set('k', { value: 'from a', storedAt: 5 }, 60)
    expect(await b.get('k')).toEqual({ value: 'from a', storedAt: 5 })
    const lock = await a.tryLock('k', 5_000)
    expect(lock).not.toBeNull()
    expect(await b.tryLock('k', 5_000)).toBeNull()
    await lock?.release()
    expect(await b.tryLock('k', 5_000)).not.toBeNull()
  })

  it('make one loader call between them for concurrent misses', async () => {
    const loader = countingLoader(200)
    const swrA = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, pollIntervalMs: 20 })
    const swrB = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, pollIntervalMs: 20 })
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => swrA.getOrLoad('shared', loader)),
      ...Array.from({ length: 10 }, () => swrB.getOrLoad('shared', loader)),
    ])
    expect(loader).toHaveBeenCalledTimes(1)
    expect(new Set(results.map((r) => `${r.state}:${r.value}`))).toEqual(new Set(['miss:value-1']))
  })

  it('refresh a stale entry once between them', async () => {
    const time = clock(Date.now())
    const options = { freshSeconds: 10, staleSeconds: 100, keepSeconds: 3600, now: time.now, pollIntervalMs: 20 }
    const swrA = new SwrCache<string>({ cache: replica(), ...options })
    const swrB = new SwrCache<string>({ cache: replica(), ...options })
    await swrA.getOrLoad('k', async () => 'old')
    time.advance(30)
    const loader = countingLoader(150)
    const [ra, rb] = await Promise.all([swrA.getOrLoad('k', loader), swrB.getOrLoad('k', loader)])
    expect([ra.state, rb.state]).toEqual(['stale', 'stale'])
    await Promise.all([swrA.idle(), swrB.idle()])
    expect(loader).toHaveBeenCalledTimes(1)
    expect((await swrB.getOrLoad('k', loader)).value).toBe('value-1')
  })

  it('take over when the lock holder fails', async () => {
    const swrA = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, pollIntervalMs: 20 })
    const swrB = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, pollIntervalMs: 20 })
    const failing = vi.fn(async (): Promise<string> => {
      await sleep(100)
      throw new Error('replica A upstream error')
    })
    const a = swrA.getOrLoad('k', failing).then(
      () => undefined,
      (error: unknown) => error,
    )
    await sleep(20) // A holds the lock
    const started = Date.now()
    const b = await swrB.getOrLoad('k', async () => 'from b')
    expect(await a).toEqual(new Error('replica A upstream error'))
    expect(b).toMatchObject({ value: 'from b', state: 'miss' })
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('make one loader call between them when the load outlasts the lock TTL', async () => {
    const options = { freshSeconds: 10, staleSeconds: 10, lockTtlMs: 150, pollIntervalMs: 20 }
    const swrA = new SwrCache<string>({ cache: replica(), ...options })
    const swrB = new SwrCache<string>({ cache: replica(), ...options })
    const loader = countingLoader(700) // over four lock TTLs: the holder must renew its lock
    const a = swrA.getOrLoad('slow', loader)
    await sleep(30)
    const b = await swrB.getOrLoad('slow', loader)
    expect(loader).toHaveBeenCalledTimes(1)
    expect(b).toMatchObject({ value: 'value-1', state: 'miss' })
    expect((await a).value).toBe('value-1')
  })

  it('wait no longer than the lock TTL for a holder that died', async () => {
    const holder = replica()
    const lock = await holder.tryLock('k', 300) // taken, then its process died: never released nor renewed
    expect(lock).not.toBeNull()
    const swr = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, pollIntervalMs: 20 })
    const started = Date.now()
    expect(await swr.getOrLoad('k', async () => 'self')).toMatchObject({ value: 'self', state: 'miss' })
    const waited = Date.now() - started
    expect(waited).toBeGreaterThanOrEqual(250)
    expect(waited).toBeLessThan(1_500)
  })

  it('load themselves when the lock holder takes too long', async () => {
    const holder = replica()
    const lock = await holder.tryLock('k', 10_000) // a replica that died holding the lock
    expect(lock).not.toBeNull()
    const swr = new SwrCache<string>({ cache: replica(), freshSeconds: 10, staleSeconds: 10, waitForPeerMs: 200, pollIntervalMs: 20 })
    const started = Date.now()
    expect(await swr.getOrLoad('k', async () => 'self')).toMatchObject({ value: 'self', state: 'miss' })
    const waited = Date.now() - started
    expect(waited).toBeGreaterThanOrEqual(180)
    expect(waited).toBeLessThan(1_500)
    await lock?.release()
  })
})

describe('Redis down', () => {
  it('acts as a miss, lets the loader work, logs once and rejects nothing', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    const logger = quietLogger()
    const cache = createRedisCache({ client: openClient(DOWN_REDIS_URL), keyPrefix: uniquePrefix('down'), logger })
    try {
      const started = Date.now()
      expect(await cache.get('k')).toBeUndefined()
      await cache.set('k', { value: 'v', storedAt: 1 }, 60)
      await cache.delete('k')
      const lock = await cache.tryLock('k', 1_000)
      expect(lock).not.toBeNull()
      await lock?.release()

      const swr = new SwrCache<string>({ cache, freshSeconds: 10, staleSeconds: 10, logger })
      const loader = countingLoader()
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'value-1', state: 'miss' })
      expect(await swr.getOrLoad('k', loader)).toMatchObject({ value: 'value-2', state: 'miss' })
      const concurrent = await Promise.all(Array.from({ length: 20 }, () => swr.getOrLoad('c', loader)))
      expect(new Set(concurrent.map((r) => r.value)).size).toBe(1)
      expect(Date.now() - started).toBeLessThan(2_000)

      await sleep(300) // background reconnect attempts fail meanwhile
      expect(logger.warn).toHaveBeenCalledTimes(1)
      expect(logger.warn.mock.calls[0]?.[0]).toMatch(/^Redis cache unavailable/)
    } finally {
      await cache.close()
      process.off('unhandledRejection', onUnhandled)
    }
    expect(unhandled).toEqual([])
  })

  it('recovers when Redis comes back (a fresh client reaches it)', async () => {
    const prefix = uniquePrefix('recover')
    const cache = createRedisCache({ client: openClient(), keyPrefix: prefix, logger: quietLogger() })
    try {
      await cache.set('k', { value: 'v', storedAt: 1 }, 60)
      expect(await cache.get('k')).toEqual({ value: 'v', storedAt: 1 })
    } finally {
      await cache.close()
      await deleteKeys(prefix)
    }
  })
})

describe('entry encoding', () => {
  it('round-trips and rejects foreign bytes', () => {
    const entry = { value: Buffer.from('x'), storedAt: 9, etag: '"e"', meta: { a: [1, null] } }
    expect(decodeEntry(encodeEntry(entry))).toEqual(entry)
    expect(() => decodeEntry(Buffer.from('plain text'))).toThrow()
    expect(() => decodeEntry(Buffer.from([1, 0, 0, 0, 99]))).toThrow(/truncated/)
  })

  it('a foreign value under an entry key reads as a miss', async () => {
    const prefix = uniquePrefix('foreign')
    const logger = quietLogger()
    const client = openClient()
    const cache = createRedisCache({ client, keyPrefix: prefix, logger })
    const raw = createRedisCache({ client, keyPrefix: prefix, logger })
    try {
      // Write garbage with a second client under the same physical key.
      await raw.set('k', { value: 'v', storedAt: 1 }, 60)
      const { Redis } = await import('ioredis')
      const direct = new Redis(REDIS_URL)
      await direct.set(`${prefix}e:k`, 'garbage')
      direct.disconnect()
      expect(await cache.get('k')).toBeUndefined()
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('unreadable entry'))
    } finally {
      await Promise.all([cache.close(), raw.close()])
      await deleteKeys(prefix)
    }
  })
})

describe('createCache', () => {
  it('uses Redis when given a connection, memory otherwise', async () => {
    const memory = createCache({})
    const redis = createCache({ redis: openClient(), keyPrefix: `${runPrefix}env:` })
    expect([memory.kind, redis.kind]).toEqual(['memory', 'redis'])
    await redis.set('k', { value: 'v', storedAt: 1 }, 60)
    expect(await redis.get('k')).toEqual({ value: 'v', storedAt: 1 })
    await Promise.all([memory.close(), redis.close()])
  })

  it('leaves the shared connection open when one cache closes', async () => {
    const client = openClient()
    const [closing, staying] = [createCache({ redis: client, keyPrefix: `${runPrefix}shared:` }), createCache({ redis: client, keyPrefix: `${runPrefix}shared:` })]
    await closing.set('k', { value: 'v', storedAt: 1 }, 60)
    await closing.close()
    expect(await closing.get('k')).toBeUndefined()
    expect(await staying.get('k')).toEqual({ value: 'v', storedAt: 1 })
  })
})

describe('memory cache limits', () => {
  it('evicts the least recently used beyond maxEntries', async () => {
    const cache = createMemoryCache({ maxEntries: 2 })
    await cache.set('a', { value: 'a', storedAt: 1 }, 60)
    await cache.set('b', { value: 'b', storedAt: 1 }, 60)
    await cache.get('a')
    await cache.set('c', { value: 'c', storedAt: 1 }, 60)
    expect(await cache.get('b')).toBeUndefined()
    expect(await cache.get('a')).toBeDefined()
    expect(await cache.get('c')).toBeDefined()
  })

  it('keeps within maxBytes and refuses an entry bigger than the budget', async () => {
    const cache = createMemoryCache({ maxEntries: 100, maxBytes: 1_000 })
    await cache.set('big', { value: 'x'.repeat(2_000), storedAt: 1 }, 60)
    expect(await cache.get('big')).toBeUndefined()
    for (let i = 0; i < 10; i += 1) await cache.set(`k${i}`, { value: 'x'.repeat(300), storedAt: 1 }, 60)
    const kept = (await Promise.all(Array.from({ length: 10 }, (_, i) => cache.get(`k${i}`)))).filter(Boolean)
    expect(kept.length).toBeLessThanOrEqual(2)
    expect(await cache.get('k9')).toBeDefined()
  })

  it('rejects nonsense limits', () => {
    expect(() => createMemoryCache({ maxEntries: 0 })).toThrow()
    expect(() => createMemoryCache({ maxEntries: 1, maxBytes: -1 })).toThrow()
  })
})

describe('error cool-down bookkeeping', () => {
  it('forgets the oldest failures beyond 1000 keys', async () => {
    const swr = new SwrCache<string>({
      cache: createMemoryCache({ maxEntries: 10 }),
      freshSeconds: 10,
      staleSeconds: 10,
      errorCooldownSeconds: 600,
      logger: quietLogger(),
    })
    const failing = vi.fn(async (): Promise<string> => {
      throw new Error('down')
    })
    await expect(swr.getOrLoad('first', failing)).rejects.toThrow('down')
    await expect(swr.getOrLoad('first', failing)).rejects.toThrow('down')
    expect(failing).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 1_000; i += 1) await expect(swr.getOrLoad(`other-${i}`, failing)).rejects.toThrow('down')
    expect(failing).toHaveBeenCalledTimes(1_001)
    expect(await swr.getOrLoad('first', async () => 'ok')).toMatchObject({ value: 'ok', state: 'miss' })
  })
})
