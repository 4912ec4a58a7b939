import { isIP } from 'node:net'

import { env } from '@/env'
import { clientKey, createRateLimiter, type RateLimiter, rateLimitHeaders } from '@/rate-limit'
import { HttpError } from '@/utilities/httpErrors'

export interface LimitPolicy {
  name: string
  /** Requests per client per window. */
  perClient: number
  /** Requests of all clients together per window: a ceiling that rotating addresses cannot lift. */
  overall: number
  windowSeconds: number
}

const limiters = new Map<string, { client: RateLimiter; overall: RateLimiter }>()

function limitersFor(policy: LimitPolicy) {
  let pair = limiters.get(policy.name)
  if (!pair) {
    const redisUrl = env().REDIS_URL
    const common = { durationSeconds: policy.windowSeconds, redisUrl }
    pair = {
      client: createRateLimiter({ ...common, points: policy.perClient, keyPrefix: `${env().REDIS_KEY_PREFIX}rl:${policy.name}` }),
      overall: createRateLimiter({ ...common, points: policy.overall, keyPrefix: `${env().REDIS_KEY_PREFIX}rl:${policy.name}:all` }),
    }
    limiters.set(policy.name, pair)
  }
  return pair
}

/**
 * Next.js route handlers never see the socket; its server puts the peer address into
 * X-Forwarded-For when the request has none. Without TRUST_PROXY only a lone valid address there
 * counts (a forged list is ignored), and the overall ceiling bounds what forging can gain.
 */
export function callerOf(headers: Headers): string {
  const trustProxy = env().TRUST_PROXY
  if (trustProxy) return clientKey(headers, { trustProxy })
  const forwarded = headers.get('x-forwarded-for')?.trim()
  return clientKey(headers, { trustProxy, remoteAddress: forwarded && isIP(forwarded) ? forwarded : undefined })
}

/** Spends one request of the caller's budget; over budget it throws a 429 with Retry-After. */
export async function enforceRateLimit(request: Request, policy: LimitPolicy): Promise<Record<string, string>> {
  const { client, overall } = limitersFor(policy)
  const [mine, all] = await Promise.all([client.consume(callerOf(request.headers)), overall.consume('all')])
  const refused = !mine.allowed ? mine : !all.allowed ? all : undefined
  if (refused) throw new HttpError(429, 'Too many requests; try again later', rateLimitHeaders(refused))
  return rateLimitHeaders(mine)
}
