import { env } from '@/env'
import { clientKey, createRateLimiter, type RateLimiter, rateLimitHeaders } from '@/rate-limit'
import { HttpError } from '@/utilities/httpErrors'
import { peerAddressOf } from '@/utilities/requestContext'

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

/** The caller's identity: its socket address, or with TRUST_PROXY=N the address N proxies reported. */
export const callerOf = (headers: Headers) => clientKey(headers, { trustedProxyHops: env().TRUST_PROXY, remoteAddress: peerAddressOf(headers) })

/** Spends one request of the caller's budget; over budget it throws a 429 with Retry-After. */
export async function enforceRateLimit(request: Request, policy: LimitPolicy): Promise<Record<string, string>> {
  const { client, overall } = limitersFor(policy)
  const [mine, all] = await Promise.all([client.consume(callerOf(request.headers)), overall.consume('all')])
  const refused = !mine.allowed ? mine : !all.allowed ? all : undefined
  if (refused) throw new HttpError(429, 'Too many requests; try again later', rateLimitHeaders(refused))
  return rateLimitHeaders(mine)
}
