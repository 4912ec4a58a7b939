import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

import { whenReady } from '@/cache/redisClient'
import { outageLogger, type CacheLogger } from '@/cache/types'

export type RateLimiterOptions = {
  /** Requests allowed per window. */
  points: number
  /** Window length in whole seconds. */
  durationSeconds: number
  /** Namespace of the buckets, e.g. `citydash:rl:weather`; Redis keys are `<keyPrefix>:<client>`. */
  keyPrefix: string
  /** The process's Redis connection: buckets shared across replicas when given; in-process buckets otherwise. Never closed here. */
  redis?: Redis
  /** Wait for the first Redis connection at most this long (then the in-memory insurance answers). */
  connectTimeoutMs?: number
  logger?: CacheLogger
}

export type RateLimitResult = {
  allowed: boolean
  /** Seconds to wait before retrying; 0 when allowed. For the `Retry-After` header. */
  retryAfterSeconds: number
  /** Requests left in the current window. */
  remaining: number
  /** The window's request budget (`points`). */
  limit: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

export type RateLimiter = {
  readonly kind: 'memory' | 'redis'
  /** Spends `cost` points (default 1) for `key`. Never throws: over the limit is `allowed: false`. */
  consume(key: string, cost?: number): Promise<RateLimitResult>
  /** Gives back `points` (default 1) spent by `key`, e.g. when only failures should count. Never throws. */
  refund(key: string, points?: number): Promise<void>
}

/**
 * Fixed-window per-client limiting (rate-limiter-flexible). With Redis every replica shares one bucket
 * per client; if Redis is down or slow the per-process in-memory insurance limiter answers instead,
 * so an outage neither blocks every request nor lifts the limit.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { points, durationSeconds, keyPrefix } = options
  if (!Number.isInteger(points) || points < 1) throw new Error('points must be a positive integer')
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1) throw new Error('durationSeconds must be a positive integer')
  if (keyPrefix.trim() === '') throw new Error('keyPrefix is required')
  const logger = options.logger ?? console
  const memory = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix })

  const client = options.redis
  let limiter: RateLimiterAbstract = memory
  let ready: () => Promise<unknown> = async () => true
  const outage = outageLogger(logger, 'Redis rate limiter')

  if (client) {
    const waitMs = options.connectTimeoutMs ?? 500
    limiter = new RateLimiterRedis({
      storeClient: client,
      points,
      duration: durationSeconds,
      keyPrefix,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    })
    ready = async () => {
      if (!(await whenReady(client, waitMs))) outage.failed(new Error('not connected; using in-memory limits'))
      else outage.succeeded()
    }
  }

  const answer = (res: RateLimiterRes, allowed: boolean): RateLimitResult => {
    const resetSeconds = Math.max(0, Math.ceil(res.msBeforeNext / 1000))
    return {
      allowed,
      retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
      remaining: Math.max(0, res.remainingPoints),
      limit: points,
      resetSeconds,
    }
  }

  return {
    kind: client ? 'redis' : 'memory',
    async consume(key, cost = 1) {
      const bucket = key === '' ? 'unknown' : key
      await ready()
      try {
        return answer(await limiter.consume(bucket, cost), true)
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return answer(rejection, false)
        // Only reachable if even the insurance fails: fail open rather than take the site down.
        outage.failed(rejection)
        return { allowed: true, retryAfterSeconds: 0, remaining: 0, limit: points, resetSeconds: 0 }
      }
    },
    async refund(key, points = 1) {
      try {
        await limiter.reward(key === '' ? 'unknown' : key, points)
      } catch (error) {
        outage.failed(error)
      }
    },
  }
}

/** Response headers for a decision: the IETF draft `RateLimit-*` trio, plus `Retry-After` when refused. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
  }
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfterSeconds)
  return headers
}
