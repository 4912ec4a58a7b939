import { env } from '@/env'
import { createRateLimiter, type RateLimiter } from '@/rate-limit'

/**
 * Sign-in and sign-up budgets (rate-limiter-flexible's login-protection pattern). Failed sign-ins
 * count per (account, client), so an attacker elsewhere never locks the owner out, and per client
 * across accounts; successful ones are refunded. With REDIS_URL the counters are shared by replicas.
 */
export const SIGN_IN_LIMITS = {
  failuresPerAccountAndClient: { points: 5, durationSeconds: 15 * 60 },
  failuresPerClient: { points: 30, durationSeconds: 15 * 60 },
  signUpsPerClient: { points: 10, durationSeconds: 60 * 60 },
} as const

type Limiters = Record<keyof typeof SIGN_IN_LIMITS, RateLimiter>

const PROCESS_WIDE = Symbol.for('citydash.signInLimiters')
const processWide = globalThis as { [PROCESS_WIDE]?: Limiters }

export function signInLimiters(): Limiters {
  if (!processWide[PROCESS_WIDE]) {
    const { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } = env()
    const limiter = (name: keyof typeof SIGN_IN_LIMITS) =>
      createRateLimiter({ ...SIGN_IN_LIMITS[name], redisUrl, keyPrefix: `${prefix}rl:auth:${name}` })
    processWide[PROCESS_WIDE] = {
      failuresPerAccountAndClient: limiter('failuresPerAccountAndClient'),
      failuresPerClient: limiter('failuresPerClient'),
      signUpsPerClient: limiter('signUpsPerClient'),
    }
  }
  return processWide[PROCESS_WIDE]
}

/** Whether a browser request comes from another site: its Origin, else its Sec-Fetch-Site, says so. */
export function isCrossSite(headers: Headers, serverUrl: string): boolean {
  const origin = headers.get('origin')
  if (origin !== null) return origin !== new URL(serverUrl).origin
  const site = headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}
