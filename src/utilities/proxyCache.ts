import { createCacheFromEnv, createSwrCache, type SwrCache } from '@/cache'
import { env } from '@/env'

const caches = new Map<string, SwrCache<unknown>>()

/** A stale-while-revalidate cache for one proxy's answers, shared by replicas when Redis is set. */
export function proxyCache<V>(name: string, freshSeconds: number): SwrCache<V> {
  let cache = caches.get(name)
  if (!cache) {
    cache = createSwrCache<unknown>({
      cache: createCacheFromEnv({ redisUrl: env().REDIS_URL, keyPrefix: `${env().REDIS_KEY_PREFIX}${name}:` }),
      freshSeconds,
      staleSeconds: freshSeconds,
      // Upstream failures (quota, outages) are answered from the cache for a while rather than retried per request.
      errorCooldownSeconds: 30,
    })
    caches.set(name, cache)
  }
  return cache as SwrCache<V>
}
