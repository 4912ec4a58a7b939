import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDemoBroker, type DemoBroker } from '../../demo/broker/server'
import { authHeaders, ensureAccounts, type Role, type Session } from '../helpers/accounts'
import { no2AlertLayer } from '../helpers/layers'
import { headerOf } from '../helpers/mailHeaders'
import { linksOf, type SmtpCatcher, startSmtpCatcher } from '../helpers/smtp'

import { expectRefusal, servers } from './http'
import { type AppServer, startAppServer } from './servers'

/**
 * Alert notices by email, attacked: a production server with a real SMTP server beside it (the
 * shared servers send no mail). One reverse proxy is trusted, so X-Forwarded-For names the client.
 */

let app: AppServer
let smtp: SmtpCatcher
let broker: DemoBroker
let sessions: Record<Role, Session>
let layerId: number | string
let clients = 0
const workDir = `${process.env.TMPDIR ?? '/tmp'}/citydash-sec-alerts-${process.pid}-${Date.now()}`

// Valid addresses however many a case needs (a malformed X-Forwarded-For counts as the proxy itself).
const newClient = () => (++clients, `10.${Math.floor(clients / 250)}.${clients % 250}.1`)
const subscribe = (body: unknown, ip = newClient()) =>
  fetch(`${app.baseUrl}/api/alerts/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) })
const request = (email: string, extra: Record<string, unknown> = {}) => ({ email, layer: layerId, city: 'santander', minimumLevel: 'warning', ...extra })
const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(address))
/** The server's cron sends queued mail every second here (MAIL_QUEUE_SECONDS, tests/security/servers.ts): a fan-out and its mails, with a margin. */
const queueTicks = () => new Promise((resolve) => setTimeout(resolve, 4_000))

async function confirmFromMail(address: string) {
  const mail = await smtp.waitForMail((candidate) => candidate.envelopeTo.includes(address) && /^Confirm/.test(candidate.subject ?? ''), 30_000)
  const link = new URL(linksOf(mail).find((url) => url.includes('/alerts/confirm'))!)
  const response = await fetch(`${app.baseUrl}/api/alerts/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient() },
    body: JSON.stringify({ s: link.searchParams.get('s'), t: link.searchParams.get('t') }),
  })
  expect(response.status).toBe(200)
}

beforeAll(async () => {
  smtp = await startSmtpCatcher()
  broker = await startDemoBroker({ port: 0 })
  app = await startAppServer({
    databaseUri: `file:${workDir}.db`,
    brokerUrl: broker.url,
    env: { SMTP_URL: smtp.url, EMAIL_FROM: 'City <alerts@city.example>', TRUST_PROXY: '1' },
  })
  sessions = await ensureAccounts(app.baseUrl, ['admin', 'editor', 'viewer'])
  const admin = { 'content-type': 'application/json', origin: app.baseUrl, ...authHeaders(sessions.admin.token) }
  const settings = await fetch(`${app.baseUrl}/api/globals/site-settings`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ title: 'Secure city', cities: [{ name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 }] }),
  })
  expect(settings.status, await settings.clone().text()).toBe(200)
  const layer = await fetch(`${app.baseUrl}/api/map-layers`, {
    method: 'POST',
    headers: admin,
    // A name that would add a header if it reached a subject as it is; the rule fires at every station, on every load.
    body: JSON.stringify(no2AlertLayer('Air\r\nBcc: attacker@evil.example', 0, 'NO2 at {value}')),
  })
  expect(layer.status, await layer.clone().text()).toBe(201)
  layerId = ((await layer.json()) as { doc: { id: number } }).doc.id
})

afterAll(async () => {
  app?.stop()
  await Promise.all([broker?.close(), smtp?.close()])
})

describe('alert subscriptions', () => {
  it('send nothing but the confirmation to an unconfirmed address, however often the layer loads', async () => {
    const address = 'unconfirmed@example.org'
    expect((await subscribe(request(address))).status).toBe(202)
    for (let load = 0; load < 3; load++) {
      expect((await fetch(`${app.baseUrl}/api/layers/${layerId}/features?city=santander`)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 4_000))
    }
    await queueTicks()
    expect(mailsTo(address)).toHaveLength(1)
    expect(mailsTo(address)[0]!.subject).toMatch(/^Confirm/)
    // A mail scanner that follows the link (GET) confirms nothing.
    const link = linksOf(mailsTo(address)[0]!).find((url) => url.includes('/alerts/confirm'))!
    expect((await fetch(link.replace(/^http:\/\/127\.0\.0\.1:\d+/, app.baseUrl))).status).toBe(200)
    expect((await fetch(`${app.baseUrl}/api/layers/${layerId}/features?city=santander`)).status).toBe(200)
    await queueTicks()
    expect(mailsTo(address)).toHaveLength(1)
  })

  it('answer the same for a new, a pending and a confirmed address (no enumeration)', async () => {
    const confirmed = 'known@example.org'
    await subscribe(request(confirmed))
    await confirmFromMail(confirmed)
    const answers = await Promise.all([subscribe(request('never-seen@example.org')), subscribe(request('unconfirmed@example.org')), subscribe(request(confirmed))])
    const bodies = await Promise.all(answers.map(async (answer) => `${answer.status} ${await answer.text()}`))
    expect(new Set(bodies).size).toBe(1)
    expect(bodies[0]).toMatch(/^202 /)
    // The confirmed address is told it is subscribed already; nothing changes.
    await smtp.waitForMail((mail) => mail.envelopeTo.includes(confirmed) && /already/.test(mail.subject ?? ''), 30_000)
  })

  it('are limited per client and per address', async () => {
    const client = newClient()
    const statuses = []
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await subscribe(request(`client-${attempt}@example.org`), client)).status)
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202])
    await expectRefusal(await subscribe(request('client-6@example.org'), client), 429)
    // One address, asked for from ever new clients: three confirmations an hour at most.
    const target = 'victim@example.org'
    const perAddress = []
    for (let attempt = 0; attempt < 4; attempt++) perAddress.push((await subscribe(request(target))).status)
    expect(perAddress).toEqual([202, 202, 202, 429])
    // The same inbox under other spellings (sub-addresses, letter case) shares the budget.
    for (const variant of ['victim+1@example.org', 'Victim+alerts@Example.org', 'VICTIM@example.org']) await expectRefusal(await subscribe(request(variant)), 429)
    await queueTicks()
    expect(mailsTo(target).length).toBeLessThanOrEqual(3)
  })

  it('let refused junk from 510 rotating clients spend nothing of the shared ceiling (500 in ten minutes): a real sign-up is still taken', async () => {
    for (let attempt = 0; attempt < 510; attempt++) {
      const junk = attempt % 2 ? { ...request('not-an-address'), email: 'not-an-address' } : { ...request(`junk-${attempt}@example.org`), layer: 999_999 }
      expect([400, 404]).toContain((await subscribe(junk)).status)
    }
    expect((await subscribe(request('after-junk@example.org'))).status).toBe(202)
  }, 120_000)

  it('refuse header injection in the address and the time zone, and keep names out of headers', async () => {
    for (const email of ['victim@example.org\r\nBcc: attacker@evil.example', 'victim@example.org\nBcc:attacker@evil.example', '"a\r\nb"@example.org']) {
      const text = await expectRefusal(await subscribe(request(email)), 400)
      expect(JSON.parse(text)).toMatchObject({ error: expect.stringMatching(/email/) })
    }
    await expectRefusal(await subscribe(request('tz@example.org', { quietHours: { from: 22, until: 7, timeZone: 'UTC\r\nBcc: attacker@evil.example' } })), 400)
    // The layer's name carries a CR/LF: the confirmation's subject and headers stay whole.
    expect(smtp.mails.some((mail) => mail.envelopeTo.some((to) => to.includes('evil.example')))).toBe(false)
    expect(smtp.mails.every((mail) => !mail.headers.has('bcc'))).toBe(true)
    // A load of the layer (its data is older than its refresh interval) raises the confirmed subscriber's notice.
    expect((await fetch(`${app.baseUrl}/api/layers/${layerId}/features?city=santander`)).status).toBe(200)
    const notice = await smtp.waitForMail((mail) => mail.envelopeTo.includes('known@example.org') && /^Critical/.test(mail.subject ?? ''), 45_000)
    expect(notice.subject).toBe('Critical: Air Bcc: attacker@evil.example in Santander')
    // In the header section, not the body (where the name is text, its line break a line break).
    const headerSection = notice.raw.split(/\r?\n\r?\n/)[0]!
    expect(headerSection).not.toMatch(/^Bcc:/im)
    expect(notice.envelopeTo).toEqual(['known@example.org'])
  })

  it('refuse forged links; an unsubscribe with a forged token erases nothing', async () => {
    const mail = mailsTo('known@example.org').find((candidate) => headerOf(candidate, 'list-unsubscribe'))!
    const url = new URL(headerOf(mail, 'list-unsubscribe').slice(1, -1))
    const forged = `${app.baseUrl}/api/alerts/unsubscribe?s=${url.searchParams.get('s')}&t=${'B'.repeat(43)}`
    expect((await fetch(forged, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(200)
    await expectRefusal(await fetch(`${app.baseUrl}/api/alerts/unsubscribe?s=1`, { method: 'POST' }), 400)
    await expectRefusal(await fetch(`${app.baseUrl}/api/alerts/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"s":"1","t":"x"}' }), 400)
    const admin = authHeaders(sessions.admin.token)
    const list = (await (await fetch(`${app.baseUrl}/api/alert-subscriptions?where[email][equals]=known@example.org`, { headers: admin })).json()) as { totalDocs: number }
    expect(list.totalDocs).toBe(1)
  })

  it('show subscribers’ addresses to admins only', async () => {
    for (const caller of ['anonymous', 'viewer', 'editor'] as const) {
      const headers = caller === 'anonymous' ? {} : authHeaders(sessions[caller].token)
      await expectRefusal(await fetch(`${app.baseUrl}/api/alert-subscriptions`, { headers }), 403)
      const held = await fetch(`${app.baseUrl}/api/held-alert-notices`, { headers })
      expect(held.status).toBe(403)
    }
    const graphql = await fetch(`${app.baseUrl}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(sessions.editor.token) },
      body: JSON.stringify({ query: '{ AlertSubscriptions { docs { email } } }' }),
    })
    expect(JSON.stringify(await graphql.json())).not.toContain('@example.org')
    const admin = (await (await fetch(`${app.baseUrl}/api/alert-subscriptions`, { headers: authHeaders(sessions.admin.token) })).json()) as { docs: { email: string; secret?: string; subscriberKey?: string }[] }
    expect(admin.docs.some((doc) => doc.email === 'known@example.org')).toBe(true)
    // The link secret and the address hash never leave the server, not even to admins.
    expect(admin.docs.every((doc) => doc.secret === undefined && doc.subscriberKey === undefined)).toBe(true)
  })
})

describe('with email off', () => {
  it('refuses subscriptions plainly and hides the form', async () => {
    for (const server of servers()) {
      const text = await expectRefusal(
        await fetch(`${server.baseUrl}/api/alerts/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.org', layer: 1, minimumLevel: 'warning' }) }),
        503,
      )
      expect(JSON.parse(text)).toMatchObject({ error: expect.stringMatching(/no email/) })
      const page = await (await fetch(`${server.baseUrl}/alerts/subscribe`)).text()
      expect(page).toMatch(/does not send email|no envía correo/)
      expect(page).not.toMatch(/<form/)
    }
  })
})

describe('a freshly started server', () => {
  it('mails a citizen’s confirmation within 10 s with nobody signed in since it started (its jobs run from the start)', async () => {
    app.stop()
    // The same database, the mail queue at its production default (every 5 s).
    app = await startAppServer({
      databaseUri: `file:${workDir}.db`,
      brokerUrl: broker.url,
      env: { SMTP_URL: smtp.url, EMAIL_FROM: 'City <alerts@city.example>', TRUST_PROXY: '1', MAIL_QUEUE_SECONDS: '5' },
    })
    const address = `fresh-${Date.now()}@example.org`
    const asked = Date.now()
    expect((await subscribe(request(address))).status).toBe(202)
    await smtp.waitForMail((mail) => mail.envelopeTo.includes(address) && /^Confirm/.test(mail.subject ?? ''), 10_000)
    expect(Date.now() - asked).toBeLessThan(10_000)
  })
})
