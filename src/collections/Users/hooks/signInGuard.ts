import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

import type { RateLimiter } from '@/rate-limit'
import { rateLimiter } from '@/server/services'

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

/** Whether a browser request comes from another site: its Origin, else its Sec-Fetch-Site, says so. */
export function isCrossSite(headers: Headers, serverUrl: string): boolean {
  const origin = headers.get('origin')
  if (origin !== null) return origin !== new URL(serverUrl).origin
  const site = headers.get('sec-fetch-site')
  return site !== null && site !== 'same-origin' && site !== 'none'
}

// Payload 3's password hash (`pbkdf2-sha256-v1:<hex>`: PBKDF2-SHA256, 600,000 iterations, 32 bytes;
// the salt is a hex string used as text), and Payload 2's, which Payload 3 still accepts and
// replaces at the next sign-in (no prefix, 25,000 iterations, 512 bytes). As in
// payload/dist/auth/strategies/local/generatePasswordSaltHash.js.
const PASSWORD_HASH = { prefix: 'pbkdf2-sha256-v1:', iterations: 600_000, keyLength: 32, digest: 'sha256' } as const
const LEGACY_PASSWORD_HASH = { iterations: 25_000, keyLength: 512, digest: 'sha256' } as const
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

/** Whether `password` is the one an account's stored `hash` and `salt` (as the database adapter returns them) were made from. */
export async function passwordMatchesStoredHash(password: string, stored: { hash?: unknown; salt?: unknown }): Promise<boolean> {
  const { hash, salt } = stored
  if (typeof hash !== 'string' || typeof salt !== 'string') return false
  const isCurrent = hash.startsWith(PASSWORD_HASH.prefix)
  const { iterations, keyLength, digest } = isCurrent ? PASSWORD_HASH : LEGACY_PASSWORD_HASH
  const expected = Buffer.from(isCurrent ? hash.slice(PASSWORD_HASH.prefix.length) : hash, 'hex')
  const derived = await derive(password, salt, iterations, keyLength, digest)
  return derived.length === expected.length && timingSafeEqual(derived, expected)
}

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
