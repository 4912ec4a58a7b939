import { type CollectionBeforeChangeHook, ValidationError } from 'payload'

import { callerOf } from '@/server/rateLimit'
import type { User } from '@/payload-types'
import { Refusal } from '@/hooks/refusal'

import { passwordProblem } from '../password'
import { checkCurrentPassword } from './signInGuard'
import { TOO_MANY_ATTEMPTS } from './guardAuthOperations'

const invalid = (path: string, label: string, message: string) => new ValidationError({ collection: 'users', errors: [{ path, label, message }] })

/**
 * Before an account is stored, by any caller (the password-reset flow writes its hash without
 * this hook; guardAuthOperations checks its password):
 * - `currentPassword` is dropped: a virtual field, never stored nor echoed back;
 * - a new password must pass `passwordProblem`, against the account's email (the new one when it
 *   changes too) — 400;
 * - the owner of an account changing its password through REST or GraphQL (the admin's own
 *   account included) must send the current one (ASVS 2.1.6): a stolen session or an unattended
 *   browser cannot take the account over. Missing or wrong — 400; past the sign-in failure
 *   budgets — 429. Admins setting another account's password and trusted server code (Local API)
 *   need not.
 */
export const guardPasswordChange: CollectionBeforeChangeHook<User> = async ({ data, operation, originalDoc, req }) => {
  const { currentPassword, ...changes } = data
  const password = changes.password
  // Payload keeps the stored password for an empty or non-string one.
  if (operation !== 'update' || !originalDoc || typeof password !== 'string' || password === '') return changes

  const problem = passwordProblem(password, { email: changes.email ?? originalDoc.email })
  if (problem) throw invalid('password', 'Password', problem)

  const ownAccount = req.user?.collection === 'users' && String(req.user.id) === String(originalDoc.id)
  if (req.payloadAPI === 'local' || !ownAccount) return changes

  // The adapter's row: Payload's reads leave the hidden hash and salt out.
  const stored = (await req.payload.db.findOne<Pick<User, 'id' | 'hash' | 'salt'>>({ collection: 'users', where: { id: { equals: originalDoc.id } }, req })) ?? {}
  const verdict = await checkCurrentPassword({ password: currentPassword, stored, email: originalDoc.email, client: callerOf(req.headers) })
  if (verdict === 'too many attempts') throw new Refusal(TOO_MANY_ATTEMPTS, 429)
  if (verdict === 'missing') throw invalid('currentPassword', 'Current password', 'Enter your current password to set a new one')
  if (verdict === 'wrong') throw invalid('currentPassword', 'Current password', 'The current password is not correct')
  return changes
}
