import { addDataAndFileToRequest, type CollectionBeforeOperationHook, type Endpoint, type Payload } from 'payload'
import { z } from 'zod'

import { currentEmailSettings, type MailComposer, queueOutgoingMail, signedMail } from '@/email/entry'
import { inboxKey } from '@/email/server/inbox'
import { env } from '@/env'
import { Refusal } from '@/hooks/refusal'
import type { User } from '@/payload-types'
import { callerOf } from '@/server/rateLimit'
import { rateLimiter } from '@/server/services'
import { absoluteUrl } from '@/site/paths'

import { isCrossSite } from '../server/crossSite'

/**
 * "Forgot password?" by email. The request is answered at once, the same way and after the same
 * work whether the address has an account or not: its budgets are spent and one deferred mail is
 * queued. The mail queue then asks Payload for a token (random, stored with its expiry, void once
 * used) and sends our mail with a plain-text part and a link on PUBLIC_SERVER_URL, or nothing for
 * an address without an account. The budgets count per client and per inbox, known or not.
 */

/** How long a reset link works. */
export const RESET_LINK_MINUTES = 60

export const RESET_LIMITS = {
  perClient: { points: 5, durationSeconds: 15 * 60 },
  // One inbox cannot be flooded, whoever asks.
  perAddress: { points: 3, durationSeconds: 60 * 60 },
} as const

export const RESET_EMAIL_OFF = 'Password reset by email is unavailable: this site has no mail server configured. Ask an administrator to set a new password for you.'
export const TOO_MANY_RESETS = 'Too many password reset requests; try again later'
/** The deferred mail's kind (payload.config.ts gives the mail task `composePasswordReset` for it). */
export const PASSWORD_RESET_MAIL = 'passwordReset'

const resetRequestSchema = z.object({ email: z.string('Missing email.').trim().toLowerCase().min(1, 'Missing email.').max(254, 'The email has at most 254 characters') }, 'The body must be JSON {email}')

/**
 * POST /api/users/forgot-password {email}: replaces Payload's route of the same path (a
 * collection's own endpoints are matched first), so the answer never waits on the lookup.
 */
export const forgotPasswordEndpoint: Endpoint = {
  path: '/forgot-password',
  method: 'post',
  handler: async (req) => {
    if (isCrossSite(req.headers, env().PUBLIC_SERVER_URL)) throw new Refusal('Requests from other sites may not sign in or create accounts', 403)
    if (!currentEmailSettings()) throw new Refusal(RESET_EMAIL_OFF, 403)
    // JSON, or the admin's form (multipart with a `_payload` field), read as Payload's own routes read them.
    const readable = await addDataAndFileToRequest(req).then(
      () => true,
      () => false,
    )
    const parsed = resetRequestSchema.safeParse(readable ? req.data : undefined)
    if (!parsed.success) throw new Refusal(parsed.error.issues[0]?.message ?? 'The body must be JSON {email}', 400)
    const { email } = parsed.data
    const perClient = await rateLimiter('reset:perClient', RESET_LIMITS.perClient).consume(callerOf(req.headers))
    if (!perClient.allowed) throw new Refusal(TOO_MANY_RESETS, 429)
    const perAddress = await rateLimiter('reset:perAddress', RESET_LIMITS.perAddress).consume(inboxKey(email))
    if (!perAddress.allowed) throw new Refusal(TOO_MANY_RESETS, 429)
    await queueOutgoingMail(req.payload, { compose: PASSWORD_RESET_MAIL, input: { email } })
    return Response.json({ message: req.t('general:success') }, { headers: { 'Cache-Control': 'no-store' } })
  },
}

/**
 * Payload's forgotPassword operation serves trusted server code only, which takes the token
 * itself (Payload's own mail never goes out); GraphQL's mutation would look the address up
 * while the caller waits, so it is refused for the REST route above.
 */
export const guardPasswordReset: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'forgotPassword') return args
  if (req.payloadAPI !== 'local') throw new Refusal('Ask for a reset link with POST /api/users/forgot-password {email}', 400)
  return { ...args, disableEmail: true }
}

function resetUrl(payload: Payload, token: string) {
  const { config } = payload
  return absoluteUrl(`${config.routes.admin}${config.admin.routes.reset}/${encodeURIComponent(token)}`, env().PUBLIC_SERVER_URL)
}

/** The deferred reset mail, made by the mail queue: a token for the account, or nothing for an address without one. */
export const composePasswordReset: MailComposer = async (payload, input, settings) => {
  const email = typeof input.email === 'string' ? input.email : ''
  if (!email) return undefined
  const token = await payload.forgotPassword({ collection: 'users', data: { email }, disableEmail: true })
  if (typeof token !== 'string') return undefined
  const account = await payload.db.findOne<Pick<User, 'id' | 'email'>>({ collection: 'users', where: { resetPasswordToken: { equals: token } } })
  if (!account?.email) return undefined
  return signedMail(payload, settings, (siteName) => ({
    to: account.email,
    subject: `Reset your password for ${siteName}`,
    blocks: [
      `Someone, hopefully you, asked to reset the password of the account ${account.email} on ${siteName}.`,
      { label: 'Choose a new password', url: resetUrl(payload, token) },
      `The link works once, within ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
    ],
  }))
}
