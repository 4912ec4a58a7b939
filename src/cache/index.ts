import type { Redis } from 'ioredis'

import { createMemoryCache } from './memory'
import { createRedisCache } from './redis'
import type { Cache, CacheLogger } from './types'

export { createMemoryCache, type MemoryCacheOptions } from './memory'
export { createRedisCache, decodeEntry, encodeEntry, type RedisCacheOptions } from './redis'
export { closeRedisClient, createRedisClient, whenReady, type RedisClientOptions } from './redisClient'
export { createRevalidatedTags, shareRevalidatedTags, type RevalidatedTags } from './revalidatedTags'
export { SwrCache, type SwrCodec, type SwrOptions, type SwrResult, type SwrState } from './swr'
export type { Cache, CacheEntry, CacheLock, CacheLogger, JsonValue } from './types'

export type CacheChoiceOptions = {
  /** The process's Redis connection when REDIS_URL is set: the cache lives there; else the in-process LRU. */
  redis?: Redis
  keyPrefix?: string
  maxEntries?: number
  maxBytes?: number
  logger?: CacheLogger
}

export const DEFAULT_KEY_PREFIX = 'citydash:cache:'

/** The cache this deployment should use: shared Redis across replicas when configured, else memory. */
export function createCache(options: CacheChoiceOptions = {}): Cache {
  if (options.redis) {
    return createRedisCache({ client: options.redis, keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX, logger: options.logger })
  }
  return createMemoryCache({ maxEntries: options.maxEntries ?? 1_000, maxBytes: options.maxBytes ?? 32 * 1024 * 1024 })
}
