import { type CollectionAfterOperationHook, type CollectionBeforeOperationHook, type PayloadRequest, ValidationError } from 'payload'

import { userIsAdmin } from '@/access'
import { env } from '@/env'
import { callerOf } from '@/server/rateLimit'
import type { User } from '@/payload-types'
import { Refusal } from '@/hooks/refusal'

import { passwordProblem } from '../shared/password'
import { isCrossSite } from '../server/crossSite'
import { spendPasswordCheck } from '../server/passwordHash'

import { accountAndClientKey, signInLimiters } from './signInGuard'

/** Sign-up closed: the one answer whatever the address, so it never tells which accounts exist. */
export const SIGN_UP_REFUSED = 'Sign-up is closed on this site: its administrators create the accounts.'
export const SIGN_UP_OVER_REST = 'Sign up with POST /api/users'

/** A sign-up with an address that has an account: caught by the sign-up route (./signUp.ts), which answers it as any other. */
export class AddressTaken extends Error {
  constructor(readonly email: string) {
    super('The address has an account')
    this.name = 'AddressTaken'
  }
}
export const TOO_MANY_ATTEMPTS = 'Too many attempts; try again later'

const ORIGIN_CHECKED = new Set(['login', 'create', 'forgotPassword', 'resetPassword'])

const emailOf = (data: unknown) => (typeof (data as { email?: unknown })?.email === 'string' ? (data as { email: string }).email.trim().toLowerCase() : '')

/** Sign-up is open for the very first account and for everyone while ALLOW_SIGNUP is on (admins may always create accounts). */
export async function signUpOpen(req: PayloadRequest): Promise<boolean> {
  if (env().ALLOW_SIGNUP) return true
  const { totalDocs } = await req.payload.count({ collection: 'users', overrideAccess: true, req })
  return totalDocs === 0
}

/** The email of the account a password-reset token belongs to, so the new password can be checked against it. */
async function emailOfResetToken(req: PayloadRequest, token: unknown): Promise<unknown> {
  if (typeof token !== 'string' || token === '') return undefined
  const account = await req.payload.db.findOne<Pick<User, 'id' | 'email'>>({ collection: 'users', where: { resetPasswordToken: { equals: token } }, req })
  return account?.email
}

/**
 * Before sign-in, sign-up and password reset (a password change is checked by guardPasswordChange,
 * which sees the account):
 * - browsers on other sites may not sign anyone in or up (login CSRF) — 403;
 * - failed sign-ins and anonymous sign-ups spend per-client budgets (signInGuard) — 429;
 * - a new password must pass `passwordProblem` — 400, for every caller, trusted server code included;
 * - a sign-up by anyone but an admin goes through POST /api/users (GraphQL's is refused); while
 *   sign-up is closed it is refused before any lookup; with a taken email it costs a password hash
 *   and throws AddressTaken, which that route answers as a new account (./signUp.ts);
 * - a sign-in for an unknown account costs what a wrong password costs (spendPasswordCheck).
 */
export const guardAuthOperations: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const fromOutside = req.payloadAPI !== 'local'
  const data = (args as { data?: Record<string, unknown> }).data

  if (fromOutside && ORIGIN_CHECKED.has(operation) && isCrossSite(req.headers, env().PUBLIC_SERVER_URL)) {
    throw new Refusal('Requests from other sites may not sign in or create accounts', 403)
  }

  const password = data?.password
  if ((operation === 'create' || operation === 'resetPassword') && typeof password === 'string') {
    const email = operation === 'create' ? data?.email : await emailOfResetToken(req, data?.token)
    const problem = passwordProblem(password, { email: typeof email === 'string' ? email : undefined })
    if (problem) throw new ValidationError({ collection: 'users', errors: [{ path: 'password', message: problem }] })
  }

  if (!fromOutside) return args
  const client = callerOf(req.headers)
  const limiters = signInLimiters()

  if (operation === 'login') {
    const [perAccount, perClient] = await Promise.all([
      limiters.failuresPerAccountAndClient.consume(accountAndClientKey(emailOf(data), client)),
      limiters.failuresPerClient.consume(client),
    ])
    if (!perAccount.allowed || !perClient.allowed) throw new Refusal(TOO_MANY_ATTEMPTS, 429)
    const email = emailOf(data)
    const { totalDocs } = await req.payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true, req })
    if (totalDocs === 0) await spendPasswordCheck(typeof password === 'string' ? password : '')
  }

  if (operation === 'create' && !userIsAdmin(req.user)) {
    // GraphQL's answer is the new account: only the REST route can answer a taken address as a new one.
    if (req.payloadAPI === 'GraphQL') throw new Refusal(SIGN_UP_OVER_REST, 403)
    if (!(await limiters.signUpsPerClient.consume(client)).allowed) throw new Refusal(TOO_MANY_ATTEMPTS, 429)
    // Before any lookup: Payload's own 403 would come only for addresses without an account.
    if (!(await signUpOpen(req))) throw new Refusal(SIGN_UP_REFUSED, 403)
    const email = emailOf(data)
    if (email) {
      const { totalDocs } = await req.payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true, req })
      if (totalDocs > 0) {
        // A new account's password is hashed: a taken address costs the same.
        await spendPasswordCheck(typeof password === 'string' ? password : '')
        throw new AddressTaken(email)
      }
    }
  }
  return args
}

/** A successful sign-in gives back what it spent: only failures count against the budgets. */
export const refundSuccessfulSignIn: CollectionAfterOperationHook = async ({ args, operation, req, result }) => {
  if (operation !== 'login' || req.payloadAPI === 'local' || !result) return result
  const client = callerOf(req.headers)
  const limiters = signInLimiters()
  await Promise.all([
    limiters.failuresPerAccountAndClient.refund(accountAndClientKey(emailOf((args as { data?: unknown }).data), client)),
    limiters.failuresPerClient.refund(client),
  ])
  return result
}
