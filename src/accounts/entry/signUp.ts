import { addDataAndFileToRequest, createOperation, type Endpoint, headersWithCors, parseParams, type PayloadRequest, type RequiredDataFromCollectionSlug, ValidationError } from 'payload'

import { userIsAdmin } from '@/access'
import { currentEmailSettings } from '@/email/entry'
import { inboxKey } from '@/email/server/inbox'
import { queueMail } from '@/email/entry/queue'
import { Refusal } from '@/hooks/refusal'
import { rateLimiter } from '@/server/services'

import { takenAddressNotice } from './recoveryNotices'

import { AddressTaken } from './authOperations'

/** One answer to every sign-up that passed its checks, taken address or not (with email off, the account works at once). */
export const SIGN_UP_ACCEPTED = 'Thank you. If this address can have an account, it is ready: follow the link we mailed to it, then sign in.'
export const SIGN_UP_ACCEPTED_NO_EMAIL = 'Thank you. If this address can have an account, it is ready: sign in.'

// The owner of a taken address is told of tries at most this often, whoever tries.
const TAKEN_NOTICES_PER_INBOX = { points: 2, durationSeconds: 24 * 60 * 60 }

/**
 * POST /api/users (a collection's own endpoints are matched before Payload's): a sign-up never says
 * whether its address has an account (ASVS 2.5, account enumeration). A new address gets its account
 * and verification mail; a taken one costs the same work (./guardAuthOperations.ts hashes the password)
 * and its owner is mailed that someone tried; both answer 202 with one message. Refusals that do
 * not depend on the address (closed sign-up, budgets, weak password, bad data) answer as before.
 * Admins get Payload's own create and answer, which the admin's "Create new" form expects.
 */
export const signUpEndpoint: Endpoint = {
  path: '/',
  method: 'post',
  handler: async (req) => {
    const readable = await addDataAndFileToRequest(req).then(
      () => true,
      () => false,
    )
    if (!readable || typeof req.data !== 'object' || req.data === null) throw new Refusal('The body must be JSON {email, password}', 400)
    const collection = req.payload.collections.users
    if (userIsAdmin(req.user)) return payloadsCreate(req)
    try {
      await createOperation({ collection, data: req.data as RequiredDataFromCollectionSlug<'users'>, req, depth: 0 })
    } catch (error) {
      const taken = error instanceof AddressTaken ? error.email : await takenMeanwhile(req, error)
      if (!taken) throw error
      await tellOwnerOfTry(req, taken)
    }
    const message = currentEmailSettings() ? SIGN_UP_ACCEPTED : SIGN_UP_ACCEPTED_NO_EMAIL
    return Response.json({ message }, { status: 202, headers: { 'Cache-Control': 'no-store' } })
  },
}

/** Payload's own REST create (payload/dist/collections/endpoints/create.js), for admins. */
async function payloadsCreate(req: PayloadRequest): Promise<Response> {
  const collection = req.payload.collections.users
  const { autosave, depth, draft, populate, select } = parseParams(req.query)
  const doc = await createOperation({ autosave, collection, data: req.data as RequiredDataFromCollectionSlug<'users'>, depth, draft, populate, req, select })
  const { singular } = collection.config.labels
  const label = typeof singular === 'string' ? singular : 'User'
  return Response.json({ doc, message: req.t('general:successfullyCreated', { label }) }, { headers: headersWithCors({ headers: new Headers(), req }), status: 201 })
}

/**
 * The address of a sign-up that lost a race for it: past the taken-address check, it met the
 * unique index on email (Payload's ValidationError on `email`) because another sign-up made the
 * account meanwhile. Any other refusal on `email` (a malformed address) has no account behind it.
 */
async function takenMeanwhile(req: PayloadRequest, error: unknown): Promise<string | undefined> {
  if (!(error instanceof ValidationError) || !error.data.errors.some((problem) => problem.path === 'email')) return undefined
  const email = typeof req.data?.email === 'string' ? req.data.email.trim().toLowerCase() : ''
  if (!email) return undefined
  const { totalDocs } = await req.payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true })
  return totalDocs > 0 ? email : undefined
}

async function tellOwnerOfTry(req: PayloadRequest, email: string) {
  const settings = currentEmailSettings()
  if (!settings) return
  if (!(await rateLimiter('signUp:takenNotices', TAKEN_NOTICES_PER_INBOX).consume(inboxKey(email))).allowed) return
  await queueMail(req.payload, settings, (siteName) => takenAddressNotice(email, siteName), req)
}
