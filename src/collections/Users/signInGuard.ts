import { pbkdf2, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'

import type { RateLimiter } from '@/rate-limit'
import { rateLimiter } from '@/services'

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

export const signInLimiters = (): Limiters => ({
  failuresPerAccountAndClient: rateLimiter('auth:failuresPerAccountAndClient', SIGN_IN_LIMITS.failuresPerAccountAndClient),
  failuresPerClient: rateLimiter('auth:failuresPerClient', SIGN_IN_LIMITS.failuresPerClient),
  signUpsPerClient: rateLimiter('auth:signUpsPerClient', SIGN_IN_LIMITS.signUpsPerClient),
})

/** Whether a browser request comes from another site: its Origin, else its Sec-Fetch-Site, says so. */
export function isCrossSite(headers: Headers, serverUrl: string): boolean {
  const origin = headers.get('origin')
  if (origin !== null) return origin !== new URL(serverUrl).origin
  const site = headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}

// Payload 3's password hash (`pbkdf2-sha256-v1`: PBKDF2-SHA256, 600,000 iterations, 32 bytes).
const PASSWORD_HASH = { iterations: 600_000, keyLength: 32, digest: 'sha256' } as const
const derive = promisify(pbkdf2)

/**
 * Spends what checking `password` against a stored hash costs, for a sign-in with no account
 * behind it: Payload answers an unknown account without hashing anything (~7 ms against ~157 ms),
 * so the time of a refusal told which accounts exist. tests/security/payload-sign-in.test.ts
 * compares the two; it fails when Payload changes its hash parameters.
 */
export async function spendPasswordCheck(password: string): Promise<void> {
  await derive(password, randomBytes(32).toString('hex'), PASSWORD_HASH.iterations, PASSWORD_HASH.keyLength, PASSWORD_HASH.digest)
}
