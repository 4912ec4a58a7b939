import type { Redis } from 'ioredis'

import { createCache, createRedisClient, createRevalidatedTags, type RevalidatedTags, SwrCache } from '@/cache'
import { env } from '@/env'
import { createRateLimiter, type RateLimiter } from '@/rate-limit'

/**
 * The edge's long-lived objects (the Redis connection, the proxy caches, the rate limiters), made
 * once on first use from the settings; each wing makes its own the same way (`processWide`). With
 * REDIS_URL set, all caches and limiters share ONE connection.
 */
type EdgeServices = {
  redis?: Redis | null
  revalidatedTags?: RevalidatedTags
  proxyCaches: Map<string, SwrCache<unknown>>
  limiters: Map<string, RateLimiter>
}

/**
 * One object per process under `name`, made by `make` on first use. Kept on globalThis, not in
 * module scope: Next bundles the Pages API routes (src/pages/api) apart from the App Router code,
 * and both must share one set (one connection, one load per layer).
 */
export function processWide<T extends object>(name: string, make: () => T): T {
  const key = Symbol.for(`citydash.${name}`)
  const store = globalThis as { [key: symbol]: T | undefined }
  return (store[key] ??= make())
}

const services = (): EdgeServices => processWide('services', () => ({ proxyCaches: new Map(), limiters: new Map() }))

/** The Redis client name: `CLIENT LIST` shows one connection of this name per process. */
export const redisClientName = () => `${env().REDIS_KEY_PREFIX.replace(/:+$/, '')}:app`

/** The process's one Redis connection, or undefined without REDIS_URL (caches and limits then stay in memory). */
export function redisConnection(): Redis | undefined {
  const all = services()
  if (all.redis === undefined) {
    const url = env().REDIS_URL
    // Each cache and limiter logs an outage itself when its commands fail, and falls back.
    all.redis = url ? createRedisClient(url, { name: redisClientName() }) : null
  }
  return all.redis ?? undefined
}

/** When each Next.js cache tag was last revalidated, kept in Redis for every replica; undefined without REDIS_URL. */
export function revalidatedTags(): RevalidatedTags | undefined {
  const redis = redisConnection()
  if (!redis) return undefined
  return (services().revalidatedTags ??= createRevalidatedTags(redis, `${env().REDIS_KEY_PREFIX}next:revalidated-tags`, console))
}

/** A stale-while-revalidate cache for one proxy's answers, shared by replicas when Redis is set. */
export function proxyCache<V>(name: string, freshSeconds: number): SwrCache<V> {
  const caches = services().proxyCaches
  let cache = caches.get(name)
  if (!cache) {
    cache = new SwrCache<unknown>({
      cache: createCache({ redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}${name}:` }),
      freshSeconds,
      staleSeconds: freshSeconds,
      // Upstream failures (quota, outages) are answered from the cache for a while rather than retried per request.
      errorCooldownSeconds: 30,
    })
    caches.set(name, cache)
  }
  return cache as SwrCache<V>
}

/** The limiter named `name` (its Redis keys are `<REDIS_KEY_PREFIX>rl:<name>:<client>`), counted across replicas when Redis is set. */
export function rateLimiter(name: string, budget: { points: number; durationSeconds: number }): RateLimiter {
  const limiters = services().limiters
  let limiter = limiters.get(name)
  if (!limiter) {
    limiter = createRateLimiter({ ...budget, redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}rl:${name}` })
    limiters.set(name, limiter)
  }
  return limiter
}
