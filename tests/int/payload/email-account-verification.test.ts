import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '@/payload-types'

import { createFirstUser, createUserLocally, PASSWORD, signIn } from '../../helpers/accounts'
import { linksOf, mailsTo } from '../../helpers/smtp'
import { mailFromQueue, runMailQueue } from '../helpers/mailQueue'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

// Account verification with email on, to a real SMTP server: an account an admin creates over REST
// gets a mail (in the site's default language, Spanish) whose link, on PUBLIC_SERVER_URL, verifies
// it once and only before it expires; until then it cannot sign in.

let app: PayloadApi
let adminToken: string

const ADMIN = { email: `verify-admin-${process.pid}@example.org`, password: PASSWORD }

const PUBLIC_URL = 'http://dashboard.city.example'
let clients = 0
const newClient = () => `198.51.100.${++clients}`

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), ...headers }, body: JSON.stringify(body) })

const signInAnswer = (email: string) => post('/api/users/login', { email, password: PASSWORD })
const verify = (token: string) => post('/api/account/verify', { t: token })

let accounts = 0
async function editorCreatedByAdmin(): Promise<User> {
  const email = `verify-${++accounts}-${process.pid}@example.org`
  const answer = await post('/api/users', { email, password: PASSWORD, role: 'editor' }, { authorization: `JWT ${adminToken}` })
  expect(answer.status).toBe(201)
  return ((await answer.json()) as { doc: User }).doc
}

async function verificationMailFor(email: string) {
  const mail = await mailFromQueue(app, (candidate) => candidate.envelopeTo.includes(email))
  const link = linksOf(mail).find((url) => url.includes('/account/verify?'))
  expect(link, mail.text).toBeDefined()
  return { mail, link: link!, token: new URL(link!).searchParams.get('t')! }
}

beforeAll(async () => {
  app = await startPayloadApi({
    mailFrom: 'noreply@city.example',
    env: { PUBLIC_SERVER_URL: PUBLIC_URL, TRUST_PROXY: '1' },
    site: { title: 'City Dashboard' },
    routes: ['/api/account/verify'],
  })
  // The admin is this database's first account, made by the sign-up screen: start from no accounts at all.
  await app.payload.delete({ collection: 'users', where: { id: { exists: true } }, overrideAccess: true })
  adminToken = (await createFirstUser(app.baseUrl, ADMIN, { 'x-forwarded-for': newClient() })).token
})

afterAll(() => app?.close())

describe('account verification by email', () => {
  it('makes the first account (the admin; nobody could verify it) verified, without a mail', async () => {
    const stored = await app.payload.db.findOne<User>({ collection: 'users', where: { email: { equals: ADMIN.email } } })
    expect(stored?._verified).toBe(true)
    await expect(signIn(app.baseUrl, ADMIN, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
    await runMailQueue(app.payload)
    expect(mailsTo(app.smtp, ADMIN.email)).toEqual([])
  })

  it('mails a new account a link on PUBLIC_SERVER_URL that verifies it once; before that it cannot sign in', async () => {
    const editor = await editorCreatedByAdmin()
    expect(editor._verified).toBe(false)

    const refused = await signInAnswer(editor.email)
    expect(refused.status).toBe(403)
    expect(JSON.stringify(await refused.json())).toMatch(/verify your email/i)

    const { mail, link, token } = await verificationMailFor(editor.email)
    expect(link.startsWith(`${PUBLIC_URL}/account/verify?t=`)).toBe(true)
    expect(mail.subject).toBe('Confirme su cuenta en City Dashboard')
    expect(mail.text).toContain('— City Dashboard')
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`)

    const verified = await verify(token)
    expect(verified.status).toBe(200)
    await expect(signIn(app.baseUrl, { email: editor.email, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()

    // Used once: the same link is refused.
    const again = await verify(token)
    expect(again.status).toBe(403)
    expect(await again.json()).toMatchObject({ error: expect.stringMatching(/not valid, was used already or has expired/) })
  })

  it('refuses a link once it has expired, and the account stays unable to sign in', async () => {
    const editor = await editorCreatedByAdmin()
    const { token } = await verificationMailFor(editor.email)
    const stored = await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: editor.id } } })
    // The link works for 48 hours: move its expiry into the past instead of waiting.
    expect(new Date(stored!.verificationExpiresAt!).getTime() - Date.now()).toBeGreaterThan(47 * 3_600_000)
    await app.payload.db.updateOne({ collection: 'users', id: editor.id, data: { verificationExpiresAt: new Date(Date.now() - 1000).toISOString() } })

    expect((await verify(token)).status).toBe(403)
    expect((await signInAnswer(editor.email)).status).toBe(403)
  })

  it("gives Payload's own verify routes nothing to use: the mailed token is not the stored one", async () => {
    const editor = await editorCreatedByAdmin()
    const { token } = await verificationMailFor(editor.email)
    expect((await post(`/api/users/verify/${token}`, {})).status).toBe(403)
    await expect(app.payload.verifyEmail({ collection: 'users', token })).rejects.toThrow()
    expect((await signInAnswer(editor.email)).status).toBe(403)
  })

  it('answers an unknown token as it answers a used one, and refuses malformed input with 400', async () => {
    const unknown = await verify('x'.repeat(43))
    expect(unknown.status).toBe(403)
    expect(Object.keys(await unknown.json())).toContain('error')
    expect((await post('/api/account/verify', { t: '' })).status).toBe(400)
    expect((await post('/api/account/verify', { t: 'a', extra: 1 })).status).toBe(400)
  })

  it('verifies an account whose owner resets the password from a mailed link', async () => {
    const editor = await editorCreatedByAdmin()
    await verificationMailFor(editor.email)
    const { token } = await app.payload.forgotPassword({ collection: 'users', data: { email: editor.email }, disableEmail: true }).then((reset) => ({ token: reset }))
    expect((await post('/api/users/reset-password', { token, password: 'a-fresh-reset-passphrase-2026' })).status).toBe(200)
    await expect(signIn(app.baseUrl, { email: editor.email, password: 'a-fresh-reset-passphrase-2026' }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
  })

  it('makes accounts of trusted server code (the Local API) verified, without a mail', async () => {
    const email = `verify-local-${process.pid}@example.org`
    const user = await createUserLocally(app.payload, { email, password: PASSWORD, role: 'viewer' })
    expect(user._verified).toBe(true)
    await expect(signIn(app.baseUrl, { email, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
    await runMailQueue(app.payload)
    expect(mailsTo(app.smtp, email)).toEqual([])
  })
})

describe('changing the email address, the factor password resets go to', () => {
  /** A verified editor made by the admin, signed in: its id, address and session. */
  async function verifiedOwner() {
    const email = `owner-${++accounts}-${process.pid}@example.org`
    const answer = await post('/api/users', { email, password: PASSWORD, role: 'editor', _verified: true }, { authorization: `JWT ${adminToken}` })
    expect(answer.status).toBe(201)
    const { doc } = (await answer.json()) as { doc: User }
    const { token } = await signIn(app.baseUrl, { email, password: PASSWORD }, { 'x-forwarded-for': newClient() })
    return { id: doc.id, email, token }
  }
  const patchOwn = (owner: { id: number | string; token: string }, body: Record<string, unknown>) =>
    fetch(`${app.baseUrl}/api/users/${owner.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), authorization: `JWT ${owner.token}` },
      body: JSON.stringify(body),
    })
  const storedEmail = async (id: number | string) => (await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: id } } }))?.email
  const mailsSentTo = async (email: string) => {
    await runMailQueue(app.payload)
    return mailsTo(app.smtp, email)
  }

  it('refuses a new address without the current password or with a wrong one, over REST and GraphQL; nothing changes, nobody is mailed', async () => {
    const owner = await verifiedOwner()
    const thief = `thief-${++accounts}@example.org`
    for (const body of [{ email: thief }, { email: thief, currentPassword: '' }, { email: thief, currentPassword: 'not-the-password-2026' }]) {
      const refused = await patchOwn(owner, body)
      expect(refused.status).toBe(400)
      expect(JSON.stringify(await refused.json())).toMatch(/currentPassword/)
    }
    const graphql = await fetch(`${app.baseUrl}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), authorization: `JWT ${owner.token}` },
      body: JSON.stringify({ query: `mutation { updateUser(id: ${JSON.stringify(owner.id)}, data: { email: "${thief}" }) { email } }` }),
    })
    expect(JSON.stringify(await graphql.json())).toMatch(/current password/i)
    expect(await storedEmail(owner.id)).toBe(owner.email)
    expect(await mailsSentTo(thief)).toEqual([])
    expect(await mailsSentTo(owner.email)).toEqual([])
  })

  it('with the current password: the old address is told, the new one is unverified until its mailed link is used', async () => {
    const owner = await verifiedOwner()
    const newEmail = `moved-${++accounts}-${process.pid}@example.org`
    const changed = await patchOwn(owner, { email: newEmail, currentPassword: PASSWORD })
    expect(changed.status, await changed.clone().text()).toBe(200)
    expect(((await changed.json()) as { doc: User }).doc).toMatchObject({ email: newEmail, _verified: false })

    const [told] = await mailsSentTo(owner.email)
    expect(told.subject).toBe('Se ha cambiado la dirección de correo de su cuenta en City Dashboard')
    expect(told.text).toContain(newEmail)
    expect(told.text).toMatch(/avise de inmediato a un administrador/)

    // The new address proves itself before the account signs in again.
    expect((await signInAnswer(newEmail)).status).toBe(403)
    const { mail, token } = await verificationMailFor(newEmail)
    expect(mail.text).toContain(`${newEmail} es ahora la dirección de una cuenta en City Dashboard`)
    expect((await verify(token)).status).toBe(200)
    await expect(signIn(app.baseUrl, { email: newEmail, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
    expect((await signInAnswer(owner.email)).status).toBe(401)
  })

  it('tells the address when its password is changed by its owner', async () => {
    const owner = await verifiedOwner()
    const changed = await patchOwn(owner, { password: 'another-long-passphrase-2026', currentPassword: PASSWORD })
    expect(changed.status).toBe(200)
    const [told] = await mailsSentTo(owner.email)
    expect(told.subject).toBe('Se ha cambiado la contraseña de su cuenta en City Dashboard')
  })

  it("lets an admin move someone else's address without their password: the old address is told, the account stays verified", async () => {
    const owner = await verifiedOwner()
    const newEmail = `admin-moved-${++accounts}-${process.pid}@example.org`
    const changed = await fetch(`${app.baseUrl}/api/users/${owner.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), authorization: `JWT ${adminToken}` },
      body: JSON.stringify({ email: newEmail }),
    })
    expect(changed.status).toBe(200)
    expect(await mailsSentTo(owner.email)).toHaveLength(1)
    await expect(signIn(app.baseUrl, { email: newEmail, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
  })

  it('lets no owner mark its own account verified or unverified', async () => {
    const owner = await verifiedOwner()
    expect((await patchOwn(owner, { _verified: false })).status).toBe(200)
    const stored = await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: owner.id } } })
    expect(stored?._verified).toBe(true)
    await expect(signIn(app.baseUrl, { email: owner.email, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
  })
})
