import { type CollectionBeforeChangeHook, ValidationError } from 'payload'

import { callerOf } from '@/server/rateLimit'
import type { User } from '@/payload-types'
import { Refusal } from '@/hooks/refusal'

import { passwordProblem } from '../shared/password'
import { PASSWORD_CHANGED, sameAddress } from './recoveryNotices'
import { checkCurrentPassword } from './signInGuard'
import { TOO_MANY_ATTEMPTS } from './authOperations'

const invalid = (path: string, label: string, message: string) => new ValidationError({ collection: 'users', errors: [{ path, label, message }] })

/**
 * Before an account is stored, by any caller (the password-reset flow writes its hash without
 * this hook; guardAuthOperations checks its password):
 * - `currentPassword` is dropped: a virtual field, never stored nor echoed back;
 * - a new password must pass `passwordProblem`, against the account's email (the new one when it
 *   changes too) — 400;
 * - the owner of an account changing its password or its email (the address resets go to)
 *   through REST or GraphQL, the admin's own account included, must send the current password
 *   (ASVS 2.1.6, 2.5.x): a stolen session or an unattended browser cannot take the account over.
 *   Missing or wrong — 400; past the sign-in failure budgets — 429. Admins changing another
 *   account and trusted server code (Local API) need not.
 */
export const guardPasswordChange: CollectionBeforeChangeHook<User> = async ({ data, operation, originalDoc, req }) => {
  const { currentPassword, ...changes } = data
  if (operation !== 'update' || !originalDoc) return changes
  // Payload keeps the stored password for an empty or non-string one.
  const newPassword = typeof changes.password === 'string' && changes.password !== '' ? changes.password : undefined
  const newEmail = typeof changes.email === 'string' && !sameAddress(changes.email, originalDoc.email) ? changes.email : undefined
  if (newPassword === undefined && newEmail === undefined) return changes

  if (newPassword !== undefined) {
    const problem = passwordProblem(newPassword, { email: changes.email ?? originalDoc.email })
    if (problem) throw invalid('password', 'Password', problem)
    req.context[PASSWORD_CHANGED] = true
  }

  const ownAccount = req.user?.collection === 'users' && String(req.user.id) === String(originalDoc.id)
  if (req.payloadAPI === 'local' || !ownAccount) return changes

  const what = newPassword !== undefined ? 'set a new one' : 'change your email address'
  // The adapter's row: Payload's reads leave the hidden hash and salt out.
  const stored = (await req.payload.db.findOne<Pick<User, 'id' | 'hash' | 'salt'>>({ collection: 'users', where: { id: { equals: originalDoc.id } }, req })) ?? {}
  const verdict = await checkCurrentPassword({ password: currentPassword, stored, email: originalDoc.email, client: callerOf(req.headers) })
  if (verdict === 'too many attempts') throw new Refusal(TOO_MANY_ATTEMPTS, 429)
  if (verdict === 'missing') throw invalid('currentPassword', 'Current password', `Enter your current password to ${what}`)
  if (verdict === 'wrong') throw invalid('currentPassword', 'Current password', 'The current password is not correct')
  return changes
}
