import { pbkdf2Sync, randomBytes } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '@/payload-types'

import { authHeaders, createUserLocally, PASSWORD, type Role, signIn, signInLocally } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

// ASVS 2.1.6 over the REST and GraphQL handlers, as a browser reaches them: changing one's own
// password takes the current one, checked against the stored hash and counted like a sign-in.

let app: PayloadApi

const NEW_PASSWORD = 'a-brand-new-passphrase-2026'

// Sign-in budgets are per client and shared by the run's files (Redis): this file's clients
// come from 192.0.2.0/24, one per request sequence, named by the one trusted proxy.
let clients = 0
const newClient = () => `192.0.2.${++clients}`

let accounts = 0
type Account = { id: number | string; email: string; token: string }

async function send(method: string, path: string, { token, client, body }: { token?: string; client: string; body?: unknown }) {
  return fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client, ...authHeaders(token ?? null) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const attemptSignIn = (email: string, password: string, client = newClient()) => send('POST', '/api/users/login', { client, body: { email, password } })

/** A fresh account made by trusted server code, signed in over HTTP. */
async function account(role: Role = 'viewer'): Promise<Account> {
  const email = `owner-${++accounts}-${process.pid}@example.org`
  const { id } = await createUserLocally(app.payload, { email, password: PASSWORD, role })
  const { token } = await signIn(app.baseUrl, { email, password: PASSWORD }, { 'x-forwarded-for': newClient() })
  return { id, email, token }
}

const changeOwn = (owner: Account, body: Record<string, unknown>, client = newClient()) =>
  send('PATCH', `/api/users/${owner.id}`, { token: owner.token, client, body })

/** The stored row as the database adapter returns it, hash and salt included. */
const storedRow = (id: number | string) => app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: id } } })

/** The field errors of a refused REST answer: `errors[].data.errors[]` as Payload's ValidationError sends them. */
async function fieldErrors(response: Response) {
  const body = (await response.json()) as { errors?: { data?: { errors?: { path: string; message: string }[] } }[] }
  return (body.errors ?? []).flatMap((error) => error.data?.errors ?? []).map(({ path, message }) => ({ path, message }))
}

/** Which of the two passwords signs the account in now. */
async function workingPassword(email: string) {
  const [old, fresh] = [await attemptSignIn(email, PASSWORD), await attemptSignIn(email, NEW_PASSWORD)]
  expect([old.status, fresh.status].sort()).toEqual([200, 401])
  return old.status === 200 ? 'old' : 'new'
}

beforeAll(async () => {
  app = await startPayloadApi({ env: { TRUST_PROXY: '1' } })
})

afterAll(() => app?.close())

describe('changing your own password through REST', () => {
  it('refuses a new password without the current one, and changes nothing', async () => {
    const owner = await account()
    const before = await storedRow(owner.id)
    const response = await changeOwn(owner, { password: NEW_PASSWORD })
    expect(response.status).toBe(400)
    expect(await fieldErrors(response)).toEqual([{ path: 'currentPassword', message: 'Enter your current password to set a new one' }])
    expect((await storedRow(owner.id))?.hash).toBe(before?.hash)
    expect(await workingPassword(owner.email)).toBe('old')
  })

  it('refuses a wrong current password, and changes nothing', async () => {
    const owner = await account()
    const response = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: 'not-my-password-at-all', name: 'Renamed' })
    expect(response.status).toBe(400)
    expect(await fieldErrors(response)).toEqual([{ path: 'currentPassword', message: 'The current password is not correct' }])
    const after = await storedRow(owner.id)
    expect(after?.name).toBeNull()
    expect(await workingPassword(owner.email)).toBe('old')
  })

  it('accepts the right one: the new password signs in, the old one no longer does; the current one is neither echoed nor stored', async () => {
    const owner = await account()
    const response = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: PASSWORD, name: 'Renamed' })
    const text = await response.text()
    expect(response.status, text).toBe(200)
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(NEW_PASSWORD)
    const row = await storedRow(owner.id)
    expect(row?.name).toBe('Renamed')
    expect(row).not.toHaveProperty('currentPassword')
    expect(JSON.stringify(row)).not.toContain(PASSWORD)
    expect(await workingPassword(owner.email)).toBe('new')
  })

  it('checks the new password before the current one, against the account email too', async () => {
    const owner = await account()
    const weak = await changeOwn(owner, { password: 'aaaaaaaaaaaa' })
    expect(await fieldErrors(weak)).toEqual([{ path: 'password', message: 'Use at least 4 different characters' }])
    const withEmail = await changeOwn(owner, { password: `${owner.email.split('@')[0]}-secret`, currentPassword: PASSWORD })
    expect(withEmail.status).toBe(400)
    expect(await fieldErrors(withEmail)).toEqual([{ path: 'password', message: 'Do not use your email address or its name part in your password' }])
    expect(await workingPassword(owner.email)).toBe('old')
  })

  it('counts missing and wrong current passwords against the sign-in budget of the account and client', async () => {
    const owner = await account()
    const attacker = newClient()
    const statuses: number[] = []
    for (const currentPassword of [undefined, 'guess-number-one', 'guess-number-two', 'guess-number-three', 'guess-number-four']) {
      const response = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword }, attacker)
      statuses.push(response.status)
      await response.text()
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400])
    // The budget is spent: even the right password is refused from this client, here and at sign-in…
    const sixth = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: PASSWORD }, attacker)
    expect(sixth.status).toBe(429)
    expect((await attemptSignIn(owner.email, PASSWORD, attacker)).status).toBe(429)
    expect(await workingPassword(owner.email)).toBe('old')
    // …while the owner, from elsewhere, still changes it.
    const fromOwner = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: PASSWORD })
    expect(fromOwner.status, await fromOwner.clone().text()).toBe(200)
    expect(await workingPassword(owner.email)).toBe('new')
  })

  it('checks Payload 2 (legacy) hashes as well', async () => {
    const owner = await account()
    // Payload 2's format, which Payload 3 still signs in with: PBKDF2-SHA256, 25,000 iterations, 512 bytes, no prefix.
    const salt = randomBytes(32).toString('hex')
    const hash = pbkdf2Sync(PASSWORD, salt, 25_000, 512, 'sha256').toString('hex')
    await app.payload.db.updateOne({ collection: 'users', id: owner.id, data: { hash, salt } })
    const wrong = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: 'not-my-password-at-all' })
    expect(wrong.status).toBe(400)
    const right = await changeOwn(owner, { password: NEW_PASSWORD, currentPassword: PASSWORD })
    expect(right.status, await right.clone().text()).toBe(200)
    expect(await workingPassword(owner.email)).toBe('new')
  })

  it('holds a bulk update of your own account to the same rule', async () => {
    const owner = await account()
    const response = await send('PATCH', `/api/users?where[id][equals]=${owner.id}`, { token: owner.token, client: newClient(), body: { password: NEW_PASSWORD } })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/current password/i)
    expect(await workingPassword(owner.email)).toBe('old')
  })
})

describe('admins', () => {
  it('need the current password for their own account', async () => {
    const admin = await account('admin')
    const without = await changeOwn(admin, { password: NEW_PASSWORD })
    expect(await fieldErrors(without)).toEqual([{ path: 'currentPassword', message: 'Enter your current password to set a new one' }])
    expect(await workingPassword(admin.email)).toBe('old')
    const withIt = await changeOwn(admin, { password: NEW_PASSWORD, currentPassword: PASSWORD })
    expect(withIt.status, await withIt.clone().text()).toBe(200)
    expect(await workingPassword(admin.email)).toBe('new')
  })

  it("set another account's password without knowing it", async () => {
    const admin = await account('admin')
    const viewer = await account()
    const response = await send('PATCH', `/api/users/${viewer.id}`, { token: admin.token, client: newClient(), body: { password: NEW_PASSWORD } })
    expect(response.status, await response.clone().text()).toBe(200)
    expect(await workingPassword(viewer.email)).toBe('new')
  })
})

describe('changing your own password through GraphQL', () => {
  const mutation = `mutation ($id: Int!, $data: mutationUserUpdateInput!) { updateUser(id: $id, data: $data) { id email } }`

  async function graphql(owner: Account, data: Record<string, unknown>) {
    const response = await send('POST', '/api/graphql', { token: owner.token, client: newClient(), body: { query: mutation, variables: { id: owner.id, data } } })
    expect(response.status).toBeLessThan(500)
    return (await response.json()) as { data?: { updateUser: { id: number } | null }; errors?: { message: string; extensions?: unknown }[] }
  }

  // GraphQL ids are Int on SQL databases; MongoDB's are strings and not covered by this query.
  it.runIf(!process.env.DATABASE_URI?.startsWith('mongodb'))('refuses it without the current password and accepts it with', async () => {
    const owner = await account()
    const without = await graphql(owner, { password: NEW_PASSWORD })
    expect(without.errors?.length, JSON.stringify(without)).toBeGreaterThan(0)
    expect(without.data?.updateUser ?? null).toBeNull()
    const wrong = await graphql(owner, { password: NEW_PASSWORD, currentPassword: 'not-my-password-at-all' })
    expect(wrong.errors?.length, JSON.stringify(wrong)).toBeGreaterThan(0)
    expect(await workingPassword(owner.email)).toBe('old')
    const right = await graphql(owner, { password: NEW_PASSWORD, currentPassword: PASSWORD })
    expect(right.errors ?? [], JSON.stringify(right)).toEqual([])
    expect(right.data?.updateUser?.id).toBe(owner.id)
    expect(await workingPassword(owner.email)).toBe('new')
  })
})

describe('where the current password is not asked for', () => {
  it('trusted server code (Local API) sets a password, still only a strong one', async () => {
    const owner = await account()
    const { user } = await signInLocally(app.payload, { email: owner.email, password: PASSWORD })
    await expect(app.payload.update({ collection: 'users', id: owner.id, data: { password: 'aaaaaaaaaaaa' }, overrideAccess: false, user })).rejects.toThrow(/Password/)
    await app.payload.update({ collection: 'users', id: owner.id, data: { password: NEW_PASSWORD }, overrideAccess: false, user })
    expect(await workingPassword(owner.email)).toBe('new')
  })

  it('the reset-password flow, which has its token, checks the new password against the account email', async () => {
    const owner = await account()
    const token = await app.payload.forgotPassword({ collection: 'users', data: { email: owner.email }, disableEmail: true })
    const withEmail = await send('POST', '/api/users/reset-password', { client: newClient(), body: { token, password: `${owner.email.split('@')[0]}-secret` } })
    expect(await fieldErrors(withEmail)).toEqual([{ path: 'password', message: 'Do not use your email address or its name part in your password' }])
    const reset = await send('POST', '/api/users/reset-password', { client: newClient(), body: { token, password: NEW_PASSWORD } })
    expect(reset.status, await reset.clone().text()).toBe(200)
    expect(await workingPassword(owner.email)).toBe('new')
  })
})
