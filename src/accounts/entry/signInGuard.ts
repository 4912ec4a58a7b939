import type { RateLimiter } from '@/rate-limit'
import { rateLimiter } from '@/server/services'

import { passwordMatchesStoredHash } from '../server/passwordHash'

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

/** The per (account, client) budget's key: sign-ins and current-password checks spend the same one. */
export const accountAndClientKey = (email: string, client: string) => `${email.trim().toLowerCase()}|${client}`

export type CurrentPasswordVerdict = 'right' | 'missing' | 'wrong' | 'too many attempts'

/**
 * Checks the current password that an account's owner must send to change it (ASVS 2.1.6). It
 * spends the sign-in failure budgets as a sign-in does, so a stolen session cannot guess it faster
 * than the sign-in form allows (and each way's guesses count against the other); a right one is
 * refunded. Past the budget nothing is hashed.
 */
export async function checkCurrentPassword({
  password,
  stored,
  email,
  client,
}: {
  password: unknown
  stored: { hash?: unknown; salt?: unknown }
  email: string
  client: string
}): Promise<CurrentPasswordVerdict> {
  const limiters = signInLimiters()
  const accountKey = accountAndClientKey(email, client)
  const [perAccount, perClient] = await Promise.all([limiters.failuresPerAccountAndClient.consume(accountKey), limiters.failuresPerClient.consume(client)])
  if (!perAccount.allowed || !perClient.allowed) return 'too many attempts'
  if (typeof password !== 'string' || password === '') return 'missing'
  if (!(await passwordMatchesStoredHash(password, stored))) return 'wrong'
  await Promise.all([limiters.failuresPerAccountAndClient.refund(accountKey), limiters.failuresPerClient.refund(client)])
  return 'right'
}
