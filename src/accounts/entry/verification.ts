import { createHash, randomBytes } from 'node:crypto'

import type {
  CollectionAfterChangeHook,
  CollectionAfterOperationHook,
  CollectionBeforeChangeHook,
  CollectionBeforeOperationHook,
  Payload,
  PayloadRequest,
} from 'payload'

import { userIsAdmin } from '@/access'
import { currentEmailSettings } from '@/email/entry'
import { queueMail } from '@/email/entry/queue'
import { env } from '@/env'
import { DEFAULT_LOCALE } from '@/i18n/locales'
import { absoluteUrl, localePath } from '@/site/paths'

import { type VerificationPurpose, verificationMailText } from '../shared/verificationMail'

/**
 * Account verification by email. Payload's `auth.verify` does the gatekeeping (an account stored
 * with `_verified: false` cannot sign in; the JWT of one that is not `_verified` is ignored), but its
 * token never expires and its link verifies on a GET (a mail scanner's). So the mail and the token
 * are ours: a random token whose SHA-256 replaces Payload's in `_verificationToken` (Payload's own
 * verify routes, given the mailed token, find nothing; a database reader finds no working link),
 * with `verificationExpiresAt`. The mailed link opens /account/verify, whose button POSTs it to
 * /api/account/verify (verifyAccount): valid once, before it expires.
 *
 * Who is verified without a mail: the first account (the admin, nobody could verify it otherwise),
 * every account while email is off (there is no way to verify), an account an admin marks verified,
 * and accounts made by trusted server code (the Local API: seed, scripts) unless it passes
 * `_verified: false`. Following a password-reset link proves the address too (verifyOnPasswordReset).
 */

/** How long a verification link works. */
export const VERIFICATION_LINK_HOURS = 48

/** The path of the page the mailed link opens (in the site's default locale). */
export const VERIFY_PAGE_PATH = '/account/verify'

export const VERIFICATION_LINK_REFUSED = 'This verification link is not valid, was used already or has expired. An administrator can mark the account verified, or send a password reset link, which verifies it too.'

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

type StoredAccount = { id: number | string; email: string; _verified?: boolean | null; firstAdminClaim?: string | null }

/** Payload would mail its own verification link (English, a GET that verifies, no expiry): ours is sent instead. */
export const withoutPayloadVerificationMail: CollectionBeforeOperationHook = ({ args, operation }) =>
  operation === 'create' ? { ...args, disableVerificationEmail: true } : args

/**
 * Only admins and trusted server code set whether an account is verified: a sign-up proves its
 * address by mail, and an owner can neither verify nor unverify its own account.
 */
export const keepVerificationToAdmins: CollectionBeforeChangeHook = ({ data, req }) => {
  if (req.payloadAPI === 'local' || userIsAdmin(req.user)) return data
  const { _verified: _ignored, ...rest } = data
  return rest
}

function mustVerify(req: PayloadRequest, stored: StoredAccount, data: Record<string, unknown>): boolean {
  if (stored._verified || stored.firstAdminClaim || !currentEmailSettings()) return false
  return req.payloadAPI !== 'local' || data._verified === false
}

/** After an account is created (in its transaction, where the database has them): it is verified at once, or its verification link is stored and mailed. */
export const startVerification: CollectionAfterChangeHook = async ({ data, doc, operation, req }) => {
  if (operation !== 'create') return doc
  const stored = await req.payload.db.findOne<StoredAccount>({ collection: 'users', where: { id: { equals: doc.id } }, req })
  if (!stored) return doc
  if (!mustVerify(req, stored, data)) {
    if (!stored._verified) await req.payload.db.updateOne({ collection: 'users', id: doc.id, data: { _verified: true, _verificationToken: null }, req, returning: false })
    return { ...doc, _verified: true }
  }
  await sendVerificationLink(req.payload, stored, req)
  return { ...doc, _verified: false }
}

/**
 * Stores a fresh verification link for `account` (any earlier one stops working) and queues its
 * mail, in `req`'s transaction: for a new account, or for the new address of an existing one.
 */
export async function sendVerificationLink(
  payload: Payload,
  account: Pick<StoredAccount, 'id' | 'email'>,
  req?: PayloadRequest,
  now = new Date(),
  purpose: VerificationPurpose = 'account',
) {
  const settings = currentEmailSettings()
  if (!settings) throw new Error('Email is off: no verification link can be sent')
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_HOURS * 3_600_000)
  await payload.db.updateOne({
    collection: 'users',
    id: account.id,
    data: { _verified: false, _verificationToken: tokenHash(token), verificationExpiresAt: expiresAt.toISOString() },
    req,
    returning: false,
  })
  const link = absoluteUrl(`${localePath(DEFAULT_LOCALE, VERIFY_PAGE_PATH)}?${new URLSearchParams({ t: token })}`, env().PUBLIC_SERVER_URL)
  const text = verificationMailText(DEFAULT_LOCALE)
  await queueMail(
    payload,
    settings,
    (siteName) => ({
      to: account.email,
      subject: text.subject(siteName),
      blocks: [text.intro[purpose](account.email, siteName), { label: text.confirm, url: link }, text.expiry(VERIFICATION_LINK_HOURS)],
    }),
    req,
  )
}

/** Verifies the account a mailed token belongs to; false for a token that is unknown, used or expired (which are not told apart). */
export async function verifyAccount(payload: Payload, token: string, now = new Date()): Promise<boolean> {
  const account = await payload.db.findOne<StoredAccount>({
    collection: 'users',
    where: { and: [{ _verificationToken: { equals: tokenHash(token) } }, { verificationExpiresAt: { greater_than: now.toISOString() } }] },
  })
  if (!account) return false
  // Clearing the token is what makes the link single-use.
  await payload.db.updateOne({
    collection: 'users',
    id: account.id,
    data: { _verified: true, _verificationToken: null, verificationExpiresAt: null },
    returning: false,
  })
  return true
}

/** A password reset was done from a link mailed to the account's address: that address is proven, so the account is verified. */
export const verifyOnPasswordReset: CollectionAfterOperationHook = async ({ operation, req, result }) => {
  if (operation !== 'resetPassword') return result
  const id = (result as { user?: { id?: number | string } } | undefined)?.user?.id
  if (id !== undefined) {
    await req.payload.db.updateOne({ collection: 'users', id, data: { _verified: true, _verificationToken: null, verificationExpiresAt: null }, req, returning: false })
  }
  return result
}
