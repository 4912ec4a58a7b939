import { randomUUID } from 'node:crypto'

import type { Redis } from 'ioredis'

import { whenReady } from './redisClient'
import {
  outageLogger,
  ttlToMs,
  type Cache,
  type CacheEntry,
  type CacheLock,
  type CacheLogger,
  type JsonValue,
} from './types'

export type RedisCacheOptions = {
  /** The process's Redis connection (see createRedisClient), shared with its other caches and limiters; the cache never closes it. */
  client: Redis
  /** Prepended to every key, e.g. `citydash:cache:`; entries live under `<prefix>e:`, locks under `<prefix>l:`. */
  keyPrefix: string
  /** Wait for the first connection at most this long (then the read is a miss). */
  connectTimeoutMs?: number
  logger?: CacheLogger
}

/*
 * Stored format, one Redis string per entry:
 *   byte 0       format version (1)
 *   bytes 1..4   header length, unsigned big-endian
 *   header       JSON {s: storedAt, t: 'b' (Buffer) | 's' (text), e?: etag, m?: meta}
 *   rest         the value's bytes (UTF-8 for text)
 */
const FORMAT_VERSION = 1

type Header = { s: number; t: 'b' | 's'; e?: string; m?: Record<string, JsonValue> }

export function encodeEntry(entry: CacheEntry): Buffer {
  const header: Header = { s: entry.storedAt, t: typeof entry.value === 'string' ? 's' : 'b' }
  if (entry.etag !== undefined) header.e = entry.etag
  if (entry.meta !== undefined) header.m = entry.meta
  const headerBytes = Buffer.from(JSON.stringify(header))
  const prefix = Buffer.alloc(5)
  prefix.writeUInt8(FORMAT_VERSION, 0)
  prefix.writeUInt32BE(headerBytes.byteLength, 1)
  const value = typeof entry.value === 'string' ? Buffer.from(entry.value) : entry.value
  return Buffer.concat([prefix, headerBytes, value])
}

export function decodeEntry(raw: Buffer): CacheEntry {
  if (raw.byteLength < 5 || raw.readUInt8(0) !== FORMAT_VERSION) throw new Error('unknown cache entry format')
  const headerLength = raw.readUInt32BE(1)
  if (5 + headerLength > raw.byteLength) throw new Error('truncated cache entry')
  const header = JSON.parse(raw.subarray(5, 5 + headerLength).toString('utf8')) as Partial<Header>
  if (typeof header.s !== 'number' || (header.t !== 'b' && header.t !== 's')) throw new Error('bad cache entry header')
  const body = raw.subarray(5 + headerLength)
  const entry: CacheEntry = {
    value: header.t === 's' ? body.toString('utf8') : Buffer.from(body),
    storedAt: header.s,
  }
  if (typeof header.e === 'string') entry.etag = header.e
  if (header.m !== undefined) entry.meta = header.m
  return entry
}

// Deletes the lock only if it is still ours (it may have expired and been taken by another replica).
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`
// Pushes the lock's expiry only while it is still ours.
const EXTEND_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`

/**
 * A cache shared by every replica. A Redis outage never breaks a request: reads are misses,
 * writes are dropped, locks are granted, and the outage is logged once.
 */
export function createRedisCache(options: RedisCacheOptions): Cache {
  const logger = options.logger ?? console
  const outage = outageLogger(logger, 'Redis cache')
  const { client } = options
  const waitMs = options.connectTimeoutMs ?? 500
  const entryKey = (key: string) => `${options.keyPrefix}e:${key}`
  const lockKey = (key: string) => `${options.keyPrefix}l:${key}`
  let closed = false

  /** Runs a command, or answers `fallback` when Redis is down, slow or closed. */
  async function attempt<T>(command: () => Promise<T>, fallback: T): Promise<T> {
    if (closed) return fallback
    try {
      if (!(await whenReady(client, waitMs))) throw new Error('not connected')
      const result = await command()
      outage.succeeded()
      return result
    } catch (error) {
      outage.failed(error)
      return fallback
    }
  }

  return {
    kind: 'redis',
    async get(key) {
      const raw = await attempt(() => client.getBuffer(entryKey(key)), null)
      if (raw === null) return undefined
      try {
        return decodeEntry(raw)
      } catch (error) {
        logger.warn(`Redis cache: unreadable entry treated as a miss (${(error as Error).message})`)
        return undefined
      }
    },
    async set(key, entry, ttlSeconds) {
      const ttl = ttlToMs(ttlSeconds)
      if (ttl === 0) {
        await attempt(() => client.del(entryKey(key)), 0)
        return
      }
      await attempt(() => client.set(entryKey(key), encodeEntry(entry), 'PX', ttl), null)
    },
    async delete(key) {
      await attempt(() => client.del(entryKey(key)), 0)
    },
    async tryLock(key, ttlMs): Promise<CacheLock | null> {
      const token = randomUUID()
      const outcome = await attempt(
        async () => ((await client.set(lockKey(key), token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK' ? 'taken' : 'held'),
        'unavailable' as const,
      )
      if (outcome === 'held') return null
      if (outcome === 'unavailable') return { release: async () => {}, extend: async () => true }
      let released = false
      return {
        async extend(extendMs) {
          if (released) return false
          // Redis unavailable: keep working as with a fail-open lock.
          const extended = await attempt(() => client.eval(EXTEND_SCRIPT, 1, lockKey(key), token, Math.max(1, Math.ceil(extendMs))), 1)
          return extended === 1
        },
        async release() {
          if (released) return
          released = true
          await attempt(() => client.eval(RELEASE_SCRIPT, 1, lockKey(key), token), 0)
        },
      }
    },
    async close() {
      closed = true
    },
  }
}
