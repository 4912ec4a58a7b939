import { createClient } from '@libsql/client'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { linksOf, mailSettings, type SmtpCatcher, startSmtpCatcher } from '../helpers/smtp'
import { call, expectRefusal, servers } from './http'
import { ownDatabase } from '../helpers/migratedDatabases'
import { type AppServer, startAppServer } from './servers'

// Password reset and account verification by email on the production build, with a real SMTP
// server started here, on SQLite and on PostgreSQL with Redis: tokens work once and expire; the
// answers and the budgets tell nothing about which addresses have accounts; nothing a caller or an
// admin types can add a mail header. And with email off (the shared servers have no SMTP), the
// features refuse openly.

const engines = ['sqlite', ...(process.env.TEST_POSTGRES_URI ? (['postgres'] as const) : [])] as const
const PASSWORD = 'Reset-passphrase-2026'
const NEW_PASSWORD = 'A-brand-new-passphrase-2027'

type Mailing = { server: AppServer; smtp: SmtpCatcher; databaseUri: string; cleanup: () => Promise<void> }

async function startMailingServer(engine: (typeof engines)[number]): Promise<Mailing> {
  const smtp = await startSmtpCatcher()
  const env: Record<string, string> = { TRUST_PROXY: 'true', ALLOW_SIGNUP: 'true', ...mailSettings(smtp, 'City Dashboard <noreply@city.example>') }
  const { uri: databaseUri, drop } = await ownDatabase(engine, 'secmail')
  if (engine === 'postgres') Object.assign(env, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `citydash-sec-mail-${process.pid}-${Date.now()}:` })
  const server = await startAppServer({ databaseUri, brokerUrl: inject('securityBrokerUrl'), env })
  return { server, smtp, databaseUri, cleanup: async () => (server.stop(), await smtp.close(), await drop()) }
}

type ExpiryColumn = 'reset_password_expiration' | 'verification_expires_at'

/** Moves an account's reset or verification link expiry into the past, as the wait would. */
async function expireLink(databaseUri: string, column: ExpiryColumn, email: string) {
  const past = new Date(Date.now() - 60_000).toISOString()
  if (databaseUri.startsWith('file:')) {
    const client = createClient({ url: databaseUri })
    try {
      // The server writes to the same file (its jobs runner): wait for it as the server does.
      await client.execute('PRAGMA busy_timeout = 10000')
      await client.execute({ sql: `UPDATE users SET ${column} = ? WHERE email = ?`, args: [past, email] })
    } finally {
      client.close()
    }
    return
  }
  const client = new pg.Client({ connectionString: databaseUri })
  await client.connect()
  try {
    await client.query(`UPDATE users SET ${column} = $1 WHERE email = $2`, [past, email])
  } finally {
    await client.end()
  }
}

describe.each(engines)('V2/V5 password reset by email (%s, production build, real SMTP)', (engine) => {
  let mailing: Mailing
  let adminToken: string
  let clients = 0
  const newClient = () => `192.0.2.${++clients}`

  const post = (route: string, body: unknown, client = newClient(), headers: Record<string, string> = {}) =>
    fetch(`${mailing.server.baseUrl}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: mailing.server.baseUrl, 'x-forwarded-for': client, ...headers },
      body: JSON.stringify(body),
    })
  const forgot = (email: string, client?: string) => post('/api/users/forgot-password', { email }, client)
  const reset = (token: string, password: string) => post('/api/users/reset-password', { token, password })
  const signIn = (email: string, password: string) => post('/api/users/login', { email, password })

  let accounts = 0
  /** An account an admin made and marked verified (the reset cases need no verification mail in the way). */
  async function account() {
    const email = `holder-${++accounts}-${engine}@example.org`
    const response = await post('/api/users', { email, password: PASSWORD, name: 'Holder', _verified: true }, newClient(), { authorization: `JWT ${adminToken}` })
    expect(response.status, await response.clone().text()).toBe(201)
    return email
  }

  async function tokenMailedTo(email: string) {
    const mail = await mailing.smtp.waitForMail((candidate) => candidate.envelopeTo.includes(email) && linksOf(candidate).some((url) => url.includes('/admin/reset/')), 30_000)
    const link = linksOf(mail).find((url) => url.includes('/admin/reset/'))!
    expect(link.startsWith(`${mailing.server.baseUrl}/admin/reset/`)).toBe(true)
    return decodeURIComponent(link.split('/admin/reset/')[1]!)
  }

  beforeAll(async () => {
    mailing = await startMailingServer(engine)
    const first = await post('/api/users/first-register', { email: `admin-${engine}@example.org`, password: PASSWORD, confirmPassword: PASSWORD })
    expect(first.status, await first.clone().text()).toBe(200)
    adminToken = ((await first.json()) as { token: string }).token
  })

  afterAll(async () => {
    await mailing?.cleanup()
  })

  it('accepts a reset token once: the second use is refused and the first password set stays', async () => {
    const email = await account()
    expect((await forgot(email)).status).toBe(200)
    const token = await tokenMailedTo(email)
    expect((await reset(token, NEW_PASSWORD)).status).toBe(200)
    expect(await expectRefusal(await reset(token, 'Another-passphrase-2028'), 403)).toMatch(/invalid or has expired/)
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(200)
    expect((await signIn(email, 'Another-passphrase-2028')).status).toBe(401)
  })

  it('refuses an expired reset token', async () => {
    const email = await account()
    await forgot(email)
    const token = await tokenMailedTo(email)
    await expireLink(mailing.databaseUri, 'reset_password_expiration', email)
    expect(await expectRefusal(await reset(token, NEW_PASSWORD), 403)).toMatch(/invalid or has expired/)
    expect((await signIn(email, PASSWORD)).status).toBe(200)
  })

  it('answers a known and an unknown address alike, and mails only the known one', async () => {
    const email = await account()
    const unknown = `nobody-${engine}@example.org`
    const [known, stranger] = [await forgot(email), await forgot(unknown)]
    expect(stranger.status).toBe(known.status)
    expect(await stranger.text()).toBe(await known.text())
    await tokenMailedTo(email)
    expect(mailing.smtp.mails.some((mail) => mail.envelopeTo.includes(unknown))).toBe(false)
  })

  it('limits requests per client, whatever the addresses', async () => {
    const client = newClient()
    for (let index = 0; index < 5; index++) expect((await forgot(`spray-${index}-${engine}@example.org`, client)).status).toBe(200)
    expect(await expectRefusal(await forgot(`spray-5-${engine}@example.org`, client), 429)).toMatch(/Too many/)
    // Another client is not held back by this one.
    expect((await forgot(`spray-6-${engine}@example.org`)).status).toBe(200)
  })

  it('limits requests per address from rotating clients, alike for known and unknown addresses', async () => {
    const known = await account()
    const unknown = `flood-${engine}@example.org`
    for (const address of [known, unknown]) {
      for (let index = 0; index < 3; index++) expect((await forgot(address)).status, address).toBe(200)
      expect(await expectRefusal(await forgot(address), 429)).toMatch(/Too many/)
      // Another spelling of the same inbox (a +tag) shares its budget.
      const [local, domain] = address.split('@')
      expect(await expectRefusal(await forgot(`${local}+again@${domain}`), 429)).toMatch(/Too many/)
    }
    // At most one mail per request the budget admitted reaches the inbox.
    await mailing.smtp.waitForMail((mail) => mail.envelopeTo.includes(known), 30_000)
    expect(mailing.smtp.mails.filter((mail) => mail.envelopeTo.includes(known)).length).toBeLessThanOrEqual(3)
  })

  it('lets no caller add a header: a CR/LF in the address mails nobody; a CR/LF site title is refused', async () => {
    const victim = `victim-${engine}@example.org`
    const holder = await account()
    for (const email of [`${holder}\r\nBcc: ${victim}`, `${holder}\nBcc: ${victim}`]) {
      const response = await forgot(email)
      expect(response.status).toBeLessThan(500)
    }
    const ask = await post('/api/questions/ask', { question: 'Is the tram running tonight?', email: `a@example.org\r\nBcc: ${victim}` })
    expect(await expectRefusal(ask, 400)).toMatch(/email/)

    const title = await fetch(`${mailing.server.baseUrl}/api/globals/site-settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: mailing.server.baseUrl, authorization: `JWT ${adminToken}` },
      body: JSON.stringify({ title: `City\r\nBcc: ${victim}` }),
    })
    expect(await expectRefusal(title, 400)).toMatch(/single line/)

    // A mail that did go out (the reset of a real account) reached its own address only.
    await forgot(holder)
    const mail = await mailing.smtp.waitForMail((candidate) => candidate.envelopeTo.includes(holder), 30_000)
    expect(mail.envelopeTo).toEqual([holder])
    expect(mailing.smtp.mails.some((candidate) => candidate.envelopeTo.includes(victim))).toBe(false)
    expect(mail.headers.has('bcc')).toBe(false)
  })
})

describe.each(engines)('V2 account verification by email (%s, production build, real SMTP)', (engine) => {
  let mailing: Mailing
  let clients = 0
  const newClient = () => `192.0.2.${100 + ++clients}`

  const post = (route: string, body: unknown) =>
    fetch(`${mailing.server.baseUrl}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: mailing.server.baseUrl, 'x-forwarded-for': newClient() },
      body: JSON.stringify(body),
    })
  const signIn = (email: string) => post('/api/users/login', { email, password: PASSWORD })
  const verify = (token: string) => post('/api/account/verify', { t: token })

  let accounts = 0
  /** A sign-up (ALLOW_SIGNUP is on), with whatever extra fields the caller sends, and the token its mail carries. */
  async function signUp(extra: Record<string, unknown> = {}) {
    const email = `newcomer-${++accounts}-${engine}@example.org`
    const response = await post('/api/users', { email, password: PASSWORD, name: 'Newcomer', ...extra })
    expect(response.status, await response.clone().text()).toBe(202)
    const mail = await mailing.smtp.waitForMail((candidate) => candidate.envelopeTo.includes(email), 30_000)
    const link = linksOf(mail).find((url) => url.includes('/account/verify?'))!
    expect(link.startsWith(`${mailing.server.baseUrl}/account/verify?t=`)).toBe(true)
    return { email, link, token: new URL(link).searchParams.get('t')! }
  }

  beforeAll(async () => {
    mailing = await startMailingServer(engine)
    const first = await post('/api/users/first-register', { email: `admin-${engine}@example.org`, password: PASSWORD, confirmPassword: PASSWORD })
    expect(first.status, await first.clone().text()).toBe(200)
  })

  afterAll(async () => {
    await mailing?.cleanup()
  })

  it('keeps a new account out until its link is used; the link works once, and opening it (a mail scanner) verifies nothing', async () => {
    const { email, link, token } = await signUp()
    expect(await expectRefusal(await signIn(email), 403)).toMatch(/verify your email/i)

    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect((await signIn(email)).status).toBe(403)

    expect((await verify(token)).status).toBe(200)
    expect((await signIn(email)).status).toBe(200)
    expect(await expectRefusal(await verify(token), 403)).toMatch(/not valid, was used already or has expired/)
  })

  it('refuses an expired link, and the account stays out', async () => {
    const { email, token } = await signUp()
    await expireLink(mailing.databaseUri, 'verification_expires_at', email)
    expect(await expectRefusal(await verify(token), 403)).toMatch(/not valid, was used already or has expired/)
    expect((await signIn(email)).status).toBe(403)
  })

  it("answers an unknown, a used and an expired link alike, and Payload's own verify route takes no mailed token", async () => {
    const used = await signUp()
    await verify(used.token)
    const expired = await signUp()
    await expireLink(mailing.databaseUri, 'verification_expires_at', expired.email)
    const pending = await signUp()
    const answers = await Promise.all([verify('A'.repeat(43)), verify(used.token), verify(expired.token)])
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, error: ((await answer.json()) as { error: string }).error })))
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1)
    expect(bodies[0]!.status).toBe(403)

    expect(await expectRefusal(await post(`/api/users/verify/${pending.token}`, {}), 403)).not.toMatch(/verified/i)
    expect((await signIn(pending.email)).status).toBe(403)
  })

  it('answers a sign-up with a taken address as any other, and mails its owner, not a verification link', async () => {
    const taken = await signUp()
    await verify(taken.token)
    const again = await post('/api/users', { email: taken.email.toUpperCase(), password: 'Another-passphrase-2026', name: 'Intruder' })
    const fresh = await post('/api/users', { email: `fresh-${++accounts}-${engine}@example.org`, password: PASSWORD, name: 'Newcomer' })
    expect({ status: again.status, body: await again.text() }).toEqual({ status: fresh.status, body: await fresh.text() })
    // In the site's default language (es).
    const tried = /tried to sign up|intentado registrarse|tentou registar-se/
    const notice = await mailing.smtp.waitForMail((candidate) => candidate.envelopeTo.includes(taken.email) && tried.test(candidate.subject ?? ''), 30_000)
    expect(notice.text).toMatch(/already has one\. Nothing changed|que ya tiene una\. No ha cambiado nada|que já tem uma\. Nada mudou/)
    expect(linksOf(notice).some((url) => url.includes('/account/verify'))).toBe(false)
    // The owner's password is the one they chose.
    expect((await signIn(taken.email)).status).toBe(200)
  })

  it('lets no sign-up mark itself verified', async () => {
    const { email } = await signUp({ _verified: true })
    expect((await signIn(email)).status).toBe(403)
  })

  it('refuses malformed input with 400', async () => {
    expect(await expectRefusal(await post('/api/account/verify', { t: 42 }), 400)).toMatch(/t/)
    expect(await expectRefusal(await post('/api/account/verify', { t: 'x'.repeat(500) }), 400)).toMatch(/t/)
  })
})

describe('email off: the features that would mail refuse openly', () => {
  it.each(servers().map((server) => [server.name, server] as const))('forgot-password is a 403 that says so, and a question with an address a 400 (%s)', async (_name, server) => {
    const forgotten = await call(server, 'anonymous', 'POST', '/api/users/forgot-password', { email: 'viewer@example.org' })
    expect(await expectRefusal(forgotten, 403)).toMatch(/no mail server/)
    const ask = await call(server, 'anonymous', 'POST', '/api/questions/ask', { question: 'When is the next bus?', email: 'citizen@example.org' })
    expect(await expectRefusal(ask, 400)).toMatch(/sends no email/)
  })
})
