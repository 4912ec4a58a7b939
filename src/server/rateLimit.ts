import { env } from '@/env'
import { clientKey, rateLimitHeaders, type RateLimitResult } from '@/rate-limit'
import { rateLimiter } from '@/server/services'
import { HttpError } from './errors'
import { peerAddressOf } from './requestContext'

export interface LimitPolicy {
  name: string
  /** Requests per client per window. */
  perClient: number
  /** Requests of all clients together per window: a ceiling that rotating addresses cannot lift. */
  overall: number
  windowSeconds: number
}

const limitersFor = (policy: LimitPolicy) => ({
  client: rateLimiter(policy.name, { points: policy.perClient, durationSeconds: policy.windowSeconds }),
  overall: rateLimiter(`${policy.name}:all`, { points: policy.overall, durationSeconds: policy.windowSeconds }),
})

/** The caller's identity: its socket address, or with TRUST_PROXY=N the address N proxies reported. */
export const callerOf = (headers: Headers) => clientKey(headers, { trustedProxyHops: env().TRUST_PROXY, remoteAddress: peerAddressOf(headers) })

const tooMany = (refused: RateLimitResult) => new HttpError(429, 'Too many requests; try again later', rateLimitHeaders(refused))

/**
 * Spends `cost` (one request by default) of the caller's budget, then, only if the caller's own
 * limit admitted it, of the overall budget: a client over its own limit spends nothing that others
 * share, so one address cannot close the route for everyone. Over either budget it throws a 429
 * with Retry-After.
 */
export async function enforceRateLimit(request: Request, policy: LimitPolicy, cost = 1): Promise<Record<string, string>> {
  const admitted = await admitCaller(request, policy, cost)
  await admitted.spendShared()
  return admitted.headers
}

/**
 * The caller's own budget, spent now; the overall one only when `spendShared` is called, once the
 * request has proved it will do the costly thing (valid, past its other checks): requests refused
 * as invalid, from however many addresses, never close the route for everyone.
 */
export async function admitCaller(request: Request, policy: LimitPolicy, cost = 1): Promise<{ headers: Record<string, string>; spendShared: () => Promise<void> }> {
  const { client, overall } = limitersFor(policy)
  const caller = callerOf(request.headers)
  const mine = await client.consume(caller, cost)
  if (!mine.allowed) throw tooMany(mine)
  return {
    headers: rateLimitHeaders(mine),
    async spendShared() {
      const all = await overall.consume('all', cost)
      if (all.allowed) return
      // Refused for everyone's ceiling, not the caller's own: it keeps what it spent.
      await client.refund(caller, cost)
      throw tooMany(all)
    },
  }
}

export interface KeyedLimitPolicy {
  name: string
  /** Requests per key per window. */
  perKey: number
  windowSeconds: number
}

/**
 * Spends one request of the budget of `key`, something other than the caller's address (an email
 * address, hashed by the caller): what rotating clients cannot escape. Over it, a 429 with Retry-After.
 */
export async function enforceKeyedRateLimit(key: string, policy: KeyedLimitPolicy): Promise<void> {
  const result = await rateLimiter(policy.name, { points: policy.perKey, durationSeconds: policy.windowSeconds }).consume(key)
  if (!result.allowed) throw tooMany(result)
}
