import { randomUUID } from 'node:crypto'

import { LRUCache } from 'lru-cache'

import { ttlToMs, type Cache, type CacheEntry, type CacheLock } from './types'

export type MemoryCacheOptions = {
  /** Most entries kept; least recently used go first. */
  maxEntries: number
  /** Approximate byte budget over values, etags and meta; an entry larger than it is not stored. */
  maxBytes?: number
}

/** Bytes an entry roughly occupies, counted for `maxBytes`. */
const ENTRY_OVERHEAD = 64

function entrySize(entry: CacheEntry): number {
  const value = typeof entry.value === 'string' ? Buffer.byteLength(entry.value) : entry.value.byteLength
  const etag = entry.etag ? Buffer.byteLength(entry.etag) : 0
  const meta = entry.meta ? Buffer.byteLength(JSON.stringify(entry.meta)) : 0
  return ENTRY_OVERHEAD + value + etag + meta
}

/** A detached copy, so callers can neither change what is stored nor what they were given. */
function copy(entry: CacheEntry): CacheEntry {
  const result: CacheEntry = {
    value: typeof entry.value === 'string' ? entry.value : Buffer.from(entry.value),
    storedAt: entry.storedAt,
  }
  if (entry.etag !== undefined) result.etag = entry.etag
  if (entry.meta !== undefined) result.meta = JSON.parse(JSON.stringify(entry.meta)) as CacheEntry['meta']
  return result
}

/** An in-process LRU cache: for a single replica, development and tests. */
export function createMemoryCache({ maxEntries, maxBytes }: MemoryCacheOptions): Cache {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('maxEntries must be a positive integer')
  if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 1)) {
    throw new Error('maxBytes must be a positive integer')
  }
  const entries = new LRUCache<string, CacheEntry>({
    max: maxEntries,
    ...(maxBytes === undefined ? {} : { maxSize: maxBytes, sizeCalculation: entrySize }),
  })
  const locks = new Map<string, { token: string; expiresAt: number }>()

  return {
    kind: 'memory',
    async get(key) {
      const entry = entries.get(key)
      return entry ? copy(entry) : undefined
    },
    async set(key, entry, ttlSeconds) {
      const ttl = ttlToMs(ttlSeconds)
      if (ttl === 0) {
        entries.delete(key)
        return
      }
      entries.set(key, copy(entry), { ttl })
    },
    async delete(key) {
      entries.delete(key)
    },
    async tryLock(key, ttlMs): Promise<CacheLock | null> {
      const now = Date.now()
      const held = locks.get(key)
      if (held && held.expiresAt > now) return null
      const token = randomUUID()
      locks.set(key, { token, expiresAt: now + Math.max(1, ttlMs) })
      return {
        async release() {
          if (locks.get(key)?.token === token) locks.delete(key)
        },
        async extend(extendMs) {
          const current = locks.get(key)
          if (current?.token !== token || current.expiresAt <= Date.now()) return false
          current.expiresAt = Date.now() + Math.max(1, extendMs)
          return true
        },
      }
    },
    async close() {
      entries.clear()
      locks.clear()
    },
  }
}
