import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

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
