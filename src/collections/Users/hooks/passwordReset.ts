import { createHash } from 'node:crypto'

import type { CollectionAfterOperationHook, CollectionBeforeOperationHook, PayloadRequest } from 'payload'

import { currentEmailSettings } from '@/email'
import { inboxOf } from '@/email/inbox'
import { queueMail } from '@/email/queue'
import { env } from '@/env'
import { Refusal } from '@/hooks/refusal'
import type { User } from '@/payload-types'
import { callerOf } from '@/server/rateLimit'
import { rateLimiter } from '@/server/services'
import { absoluteUrl } from '@/site/paths'

/**
 * "Forgot password?" by email. Payload makes the token (random, stored with its expiry, void once
 * used: resetPassword moves the expiry to now); the mail is ours, queued through src/email with a
 * plain-text part and a link on PUBLIC_SERVER_URL. The answer is the same whether the address has
 * an account or not; the budgets below count per client and per address, known or not, so they
 * tell nothing either.
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

// Set on the request when the reset mail is ours to send (Payload's own is disabled).
const MAIL_RESET = 'mailPasswordReset'

// Per inbox: victim+1@ and victim+2@ are one person's.
const addressKey = (email: string) => createHash('sha256').update(inboxOf(email)).digest('hex').slice(0, 32)

const emailOf = (data: unknown) => {
  const email = (data as { email?: unknown } | undefined)?.email
  return typeof email === 'string' ? email : ''
}

/** Before forgotPassword: email must be on, the budgets allow it; Payload then stores the token but sends nothing itself. */
export const guardPasswordReset: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  // Trusted server code that takes the token itself (Local API, `disableEmail`) needs no mail.
  if (operation !== 'forgotPassword' || args.disableEmail) return args
  if (!currentEmailSettings()) throw new Refusal(RESET_EMAIL_OFF, 403)
  if (req.payloadAPI !== 'local') {
    const perClient = await rateLimiter('reset:perClient', RESET_LIMITS.perClient).consume(callerOf(req.headers))
    if (!perClient.allowed) throw new Refusal(TOO_MANY_RESETS, 429)
    const perAddress = await rateLimiter('reset:perAddress', RESET_LIMITS.perAddress).consume(addressKey(emailOf(args.data)))
    if (!perAddress.allowed) throw new Refusal(TOO_MANY_RESETS, 429)
  }
  req.context[MAIL_RESET] = true
  return { ...args, disableEmail: true }
}

function resetUrl(req: PayloadRequest, token: string) {
  const { config } = req.payload
  return absoluteUrl(`${config.routes.admin}${config.admin.routes.reset}/${encodeURIComponent(token)}`, env().PUBLIC_SERVER_URL)
}

/** After forgotPassword made a token (there is an account): the reset mail, queued in the operation's transaction. */
export const mailPasswordReset: CollectionAfterOperationHook = async ({ operation, req, result }) => {
  if (operation !== 'forgotPassword' || typeof result !== 'string' || !req.context[MAIL_RESET]) return result
  const settings = currentEmailSettings()
  if (!settings) return result
  const account = await req.payload.db.findOne<Pick<User, 'id' | 'email'>>({ collection: 'users', where: { resetPasswordToken: { equals: result } }, req })
  if (!account?.email) return result
  await queueMail(
    req.payload,
    settings,
    (siteName) => ({
      to: account.email,
      subject: `Reset your password for ${siteName}`,
      blocks: [
        `Someone, hopefully you, asked to reset the password of the account ${account.email} on ${siteName}.`,
        { label: 'Choose a new password', url: resetUrl(req, result) },
        `The link works once, within ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
      ],
    }),
    req,
  )
  return result
}
