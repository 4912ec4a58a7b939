import { describe, expect, it } from 'vitest'

import { PASSWORD } from '../helpers/accounts'

import type { SecurityServer } from './global-setup'
import { call, expectRefusal, servers } from './http'

// A stolen session (a token, an unattended browser) must not take the account over: the email a
// password reset goes to changes only with the current password, whatever door the change comes
// through (issue "Safe round 3", defect 3). The mails that follow (old address told, new one
// verified by its link) are in tests/int/payload/email-account-verification.test.ts: these servers
// have no SMTP.

let accounts = 0

/** A fresh verified editor made by the admin, signed in: id, address and token. */
async function owner(server: SecurityServer) {
  const email = `recovery-${++accounts}-${Date.now()}@example.org`
  const created = await call(server, 'admin', 'POST', '/api/users', { email, password: PASSWORD, role: 'editor', _verified: true })
  expect(created.status).toBe(201)
  const { doc } = (await created.json()) as { doc: { id: number | string } }
  const login = await call(server, 'anonymous', 'POST', '/api/users/login', { email, password: PASSWORD })
  expect(login.status).toBe(200)
  const token = /payload-token=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1]
  expect(token).toBeDefined()
  return { id: doc.id, email, token: token! }
}

type Owner = Awaited<ReturnType<typeof owner>>

const asOwner = (server: SecurityServer, who: Owner, method: string, path: string, body?: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { origin: server.baseUrl, authorization: `JWT ${who.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

const graphqlAsOwner = (server: SecurityServer, who: Owner, query: string) => asOwner(server, who, 'POST', '/api/graphql', { query })

const storedEmail = async (server: SecurityServer, id: number | string) =>
  ((await (await call(server, 'admin', 'GET', `/api/users/${id}?depth=0`)).json()) as { email: string }).email

describe.each(servers())('V2.5 recovery factor: the email changes only with the current password ($name)', (server) => {
  it.each([
    ['a new address alone', (thief: string) => ({ email: thief })],
    ['an empty current password', (thief: string) => ({ email: thief, currentPassword: '' })],
    ['a current password that is not a string', (thief: string) => ({ email: thief, currentPassword: { $ne: '' } })],
    ['a wrong current password', (thief: string) => ({ email: thief, currentPassword: 'not-the-password-2026' })],
    ['a new address and a new password together', (thief: string) => ({ email: thief, password: 'a-thiefs-passphrase-2026' })],
  ])('refuses %s over REST PATCH with 400, and nothing changes', async (_name, body) => {
    const who = await owner(server)
    const thief = `thief-${accounts}-${Date.now()}@example.org`
    const answer = await asOwner(server, who, 'PATCH', `/api/users/${who.id}`, body(thief))
    expect(await expectRefusal(answer, 400)).toMatch(/currentPassword|current password/i)
    expect(await storedEmail(server, who.id)).toBe(who.email)
  })

  it('refuses it through a bulk PATCH of the own account', async () => {
    const who = await owner(server)
    const answer = await asOwner(server, who, 'PATCH', `/api/users?where[id][equals]=${who.id}`, { email: `bulk-${Date.now()}@example.org` })
    expect(await answer.text()).toMatch(/current password/i)
    expect(await storedEmail(server, who.id)).toBe(who.email)
  })

  it('refuses it through GraphQL updateUser, with and without a wrong current password', async () => {
    const who = await owner(server)
    for (const extra of ['', ', currentPassword: "wrong-passphrase-2026"']) {
      const answer = await graphqlAsOwner(server, who, `mutation { updateUser(id: ${JSON.stringify(who.id)}, data: { email: "gql-${Date.now()}@example.org"${extra} }) { email } }`)
      expect(JSON.stringify(await answer.json())).toMatch(/current password/i)
    }
    expect(await storedEmail(server, who.id)).toBe(who.email)
  })

  it('accepts the same address in other letter case or with spaces without asking, and it stays the same account address', async () => {
    const who = await owner(server)
    const answer = await asOwner(server, who, 'PATCH', `/api/users/${who.id}`, { email: `  ${who.email.toUpperCase()} ` })
    expect([200, 400]).toContain(answer.status)
    expect((await storedEmail(server, who.id)).trim().toLowerCase()).toBe(who.email)
  })

  it('accepts a new address with the current password (the owner signs in with it)', async () => {
    const who = await owner(server)
    const moved = `moved-${accounts}-${Date.now()}@example.org`
    const answer = await asOwner(server, who, 'PATCH', `/api/users/${who.id}`, { email: moved, currentPassword: PASSWORD })
    expect(answer.status, await answer.clone().text()).toBe(200)
    expect(await storedEmail(server, who.id)).toBe(moved)
    // Email is off on these servers: there is no link to verify the new address with, so it stays verified.
    expect((await call(server, 'anonymous', 'POST', '/api/users/login', { email: moved, password: PASSWORD })).status).toBe(200)
  })

  it('lets no owner mark its own account verified or unverified', async () => {
    const who = await owner(server)
    for (const _verified of [false, 'false', 0]) {
      await asOwner(server, who, 'PATCH', `/api/users/${who.id}`, { _verified })
      await graphqlAsOwner(server, who, `mutation { updateUser(id: ${JSON.stringify(who.id)}, data: { _verified: false }) { id } }`)
    }
    expect((await call(server, 'anonymous', 'POST', '/api/users/login', { email: who.email, password: PASSWORD })).status).toBe(200)
  })
})

describe.each(servers())('V3 sessions: the session token is not readable by page scripts ($name)', (server) => {
  it('answers /api/users/me and GraphQL meUser without the session token', async () => {
    const who = await owner(server)
    const me = (await (await asOwner(server, who, 'GET', '/api/users/me')).json()) as Record<string, unknown>
    expect(me.user).toMatchObject({ email: who.email })
    expect(me).not.toHaveProperty('token')
    expect(JSON.stringify(me)).not.toContain(who.token)
    const meUser = await graphqlAsOwner(server, who, '{ meUser { token user { email } } }')
    const text = await meUser.text()
    expect(text).not.toContain(who.token)
    expect(text).toContain(who.email)
  })
})
