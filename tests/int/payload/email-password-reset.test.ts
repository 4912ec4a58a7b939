import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '@/payload-types'

import { createUserLocally, PASSWORD, signIn } from '../../helpers/accounts'
import { linksOf, mailsTo } from '../../helpers/smtp'
import { mailFromQueue, pendingMailJobs, runMailQueue } from '../helpers/mailQueue'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

// "Forgot password?" over Payload's REST, as the admin's form sends it, to a real SMTP server:
// the mail arrives with a plain-text part and a link on PUBLIC_SERVER_URL, the link's token works
// once and not after it expires, and the answer is the same for an address without an account.

let app: PayloadApi

const PUBLIC_URL = 'http://dashboard.city.example'
const NEW_PASSWORD = 'a-fresh-reset-passphrase-2026'

let clients = 0
const newClient = () => `198.51.100.${++clients}`

const post = (path: string, body: unknown, client = newClient()) =>
  fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: JSON.stringify(body) })

const forgot = (email: string, client?: string) => post('/api/users/forgot-password', { email }, client)
const reset = (token: string, password: string) => post('/api/users/reset-password', { token, password })

let accounts = 0
async function account(): Promise<User> {
  return createUserLocally(app.payload, { email: `reset-${++accounts}-${process.pid}@example.org`, password: PASSWORD, role: 'editor' })
}

async function resetMailFor(email: string) {
  const mail = await mailFromQueue(app, (candidate) => candidate.envelopeTo.includes(email))
  const link = linksOf(mail).find((url) => url.includes('/admin/reset/'))
  expect(link, mail.text).toBeDefined()
  return { mail, link: link!, token: decodeURIComponent(link!.split('/admin/reset/')[1]!) }
}

beforeAll(async () => {
  // The integration files share one database: the site's name the mails are signed with is set here.
  app = await startPayloadApi({ mailFrom: 'noreply@city.example', env: { PUBLIC_SERVER_URL: PUBLIC_URL, TRUST_PROXY: '1' }, site: { title: 'City Dashboard' } })
})

afterAll(() => app?.close())

describe('password reset by email', () => {
  it('mails a reset link on PUBLIC_SERVER_URL, with a plain-text part and the site name, that works once', async () => {
    const user = await account()
    const answer = await forgot(user.email)
    expect(answer.status).toBe(200)
    const { mail, link, token } = await resetMailFor(user.email)

    expect(link.startsWith(`${PUBLIC_URL}/admin/reset/`)).toBe(true)
    expect(mail.subject).toBe('Reset your password for City Dashboard')
    expect(mail.from?.value[0]).toEqual({ name: 'City Dashboard', address: 'noreply@city.example' })
    expect(mail.text).toContain('— City Dashboard')
    expect(mail.html).toContain(`href="${link}"`)

    expect((await reset(token, NEW_PASSWORD)).status).toBe(200)
    await expect(signIn(app.baseUrl, { email: user.email, password: NEW_PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()

    // Used once: the same link is refused, and the password stays the one set with it.
    const again = await reset(token, 'yet-another-passphrase-2027')
    expect(again.status).toBe(403)
    expect(await again.json()).toMatchObject({ errors: [{ message: 'Token is either invalid or has expired.' }] })
    await expect(signIn(app.baseUrl, { email: user.email, password: NEW_PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
  })

  it('refuses a link once it has expired', async () => {
    const user = await account()
    await forgot(user.email)
    const { token } = await resetMailFor(user.email)
    const stored = await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: user.id } } })
    // The expiry is an hour after the request: move it into the past instead of waiting.
    expect(new Date(stored!.resetPasswordExpiration!).getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000)
    await app.payload.db.updateOne({ collection: 'users', id: user.id, data: { resetPasswordExpiration: new Date(Date.now() - 1000).toISOString() } })

    expect((await reset(token, NEW_PASSWORD)).status).toBe(403)
    await expect(signIn(app.baseUrl, { email: user.email, password: PASSWORD }, { 'x-forwarded-for': newClient() })).resolves.toBeDefined()
  })

  it('answers an address without an account as it answers one with, and mails nobody', async () => {
    const user = await account()
    const known = await forgot(user.email)
    const unknown = await forgot(`nobody-${process.pid}@example.org`)
    expect(unknown.status).toBe(known.status)
    expect(await unknown.json()).toEqual(await known.json())
    await mailFromQueue(app, (mail) => mail.envelopeTo.includes(user.email))
    expect(mailsTo(app.smtp, `nobody-${process.pid}@example.org`)).toEqual([])
  })

  it('does the same work for every address before it answers: one deferred mail queued, no account read or touched', async () => {
    const user = await account()
    const waiting = async () => (await pendingMailJobs(app.payload)).totalDocs
    const tokenOf = async () => (await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: user.id } } }))?.resetPasswordToken ?? null
    await runMailQueue(app.payload)
    const before = await waiting()
    for (const email of [user.email, `nobody-else-${process.pid}@example.org`]) {
      expect((await forgot(email)).status).toBe(200)
    }
    expect(await waiting()).toBe(before + 2)
    // The token exists only once the queue has made the mail.
    expect(await tokenOf()).toBeNull()
    const { token } = await resetMailFor(user.email)
    expect(await tokenOf()).toBe(token)
    expect(await waiting()).toBe(0)
  })

  it('takes the admin\'s form as the admin sends it (multipart, the fields as JSON in _payload)', async () => {
    const user = await account()
    const form = new FormData()
    form.append('_payload', JSON.stringify({ email: user.email }))
    const answer = await fetch(`${app.baseUrl}/api/users/forgot-password`, { method: 'POST', headers: { 'x-forwarded-for': newClient() }, body: form })
    expect(answer.status).toBe(200)
    const { link } = await resetMailFor(user.email)
    expect(link).toContain('/admin/reset/')
  })

  it('refuses a body without an address (400) and GraphQL\'s mutation, which would look the address up while the caller waits', async () => {
    for (const body of [{}, { email: '' }, { email: 42 }, 'not json']) {
      const answer = await fetch(`${app.baseUrl}/api/users/forgot-password`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient() }, body: typeof body === 'string' ? body : JSON.stringify(body) })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect((await answer.json()) as { errors: { message: string }[] }).toMatchObject({ errors: [{ message: expect.any(String) }] })
    }
    const user = await account()
    const mutation = await post('/api/graphql', { query: `mutation { forgotPasswordUser(email: "${user.email}") }` })
    expect(JSON.stringify(await mutation.json())).toMatch(/POST \/api\/users\/forgot-password/)
    expect((await app.payload.db.findOne<User>({ collection: 'users', where: { id: { equals: user.id } } }))?.resetPasswordToken ?? null).toBeNull()
  })
})
