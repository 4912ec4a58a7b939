import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { AlertSubscription, MapLayer } from '@/payload-types'

import { CROSSING_CYCLE_MS } from '../../../demo/broker/data'
import { no2AlertLayer } from '../../helpers/layers'
import { headerOf } from '../../helpers/mailHeaders'
import { linksOf, mailsTo, type ReceivedMail } from '../../helpers/smtp'
import { pendingMailJobs, runMailQueue } from '../helpers/mailQueue'
import { type PayloadApi, startPayloadApi, TEST_CITIES } from '../helpers/payload'

/**
 * Alert notices end to end on the Local API and the real routes: a real SMTP server receives
 * every mail; the demo broker's clock is the test's, so its crossing station (AirQualityObserved 2)
 * is below the NO2 limit, then above it. Station 1 is above it all the time.
 */

let app: PayloadApi
let layer: MapLayer
let clock = 0
let clients = 0

const ADDRESS = 'citizen@example.org'
const QUIET_ADDRESS = 'night-owl@example.org'
const CYCLE_START = Math.floor(Date.parse('2026-11-26T08:00:00Z') / CROSSING_CYCLE_MS) * CROSSING_CYCLE_MS
/** Observations in the first half of the cycle (whatever each station's reporting slot): station 2 below the limit. */
const BELOW = CYCLE_START + 7 * 60_000
/** In the second half: station 2 above it. */
const ABOVE = CYCLE_START + 17 * 60_000

const post = (path: string, body: unknown, ip = `198.51.100.${++clients}`) =>
  fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) })

/** Runs the mail queue until it is empty (the production server's cron does this every few seconds). */
async function drainQueue() {
  const { noticesSettled } = await import('@/notices/entry/notices')
  await noticesSettled()
  for (let round = 0; round < 20; round++) {
    const result = await runMailQueue(app.payload)
    if (!result || Object.keys(result.jobStatus ?? {}).length === 0) return
  }
}

/** A fresh load of the layer from the broker (as a refresh after the cache expired): a new version key each time. */
let version = 0
async function freshLoad(city = 'santander') {
  const [{ layerFeatures }, { toLayerSpec }] = await Promise.all([import('@/layers/entry/services'), import('@/layers/server/spec')])
  await layerFeatures().get({ ...toLayerSpec(layer), updatedAt: `${layer.updatedAt}#${++version}` }, { tenant: city })
}

const noticesTo = (address: string) => mailsTo(app.smtp, address).filter((mail) => /^(Critical|Warning|Info):/.test(mail.subject ?? ''))
const subscriptionsOf = async (address: string) =>
  (await app.payload.find({ collection: 'alert-subscriptions', where: { email: { equals: address } }, overrideAccess: true, depth: 0 })).docs as AlertSubscription[]

async function subscribeAndConfirm(address: string, extra: Record<string, unknown> = {}) {
  const response = await post('/api/alerts/subscribe', { email: address, layer: layer.id, city: 'santander', minimumLevel: 'warning', ...extra })
  expect(response.status, await response.clone().text()).toBe(202)
  await drainQueue()
  const confirmation = await app.smtp.waitForMail((mail) => mail.envelopeTo.includes(address) && /^Confirm/.test(mail.subject ?? ''))
  const link = new URL(linksOf(confirmation).find((url) => url.includes('/alerts/confirm'))!)
  const confirmed = await post('/api/alerts/confirm', { s: link.searchParams.get('s'), t: link.searchParams.get('t') })
  expect(confirmed.status, await confirmed.clone().text()).toBe(200)
  return confirmation
}

beforeAll(async () => {
  clock = BELOW
  app = await startPayloadApi({
    mailFrom: 'City Dashboard <alerts@city.example>',
    broker: { flavor: 'orion-ld', now: () => new Date(clock) },
    env: { TRUST_PROXY: '1' },
    site: { title: 'Test city', cities: TEST_CITIES, alertNotices: { periodMinutes: 60 } },
    routes: ['/api/alerts/subscribe', '/api/alerts/confirm', '/api/alerts/unsubscribe'],
  })
  layer = await app.payload.create({ collection: 'map-layers', data: no2AlertLayer('Air quality', 200, 'NO2 at {value}, above 200') })
})

afterAll(() => app?.close())

describe('alert notices by email', () => {
  let confirmation: ReceivedMail

  it('sends nothing but the confirmation before the link in it is used', async () => {
    const response = await post('/api/alerts/subscribe', { email: ADDRESS, layer: layer.id, city: 'santander', minimumLevel: 'warning' })
    expect(response.status).toBe(202)
    await freshLoad()
    await drainQueue()
    confirmation = await app.smtp.waitForMail((mail) => mail.envelopeTo.includes(ADDRESS))
    expect(mailsTo(app.smtp, ADDRESS)).toHaveLength(1)
    expect(confirmation.subject).toMatch(/^Confirm your alert notices for Santander/)
    expect(confirmation.text).toMatch(/Air quality/)
    expect(confirmation.text).toMatch(/Test city/)
    expect(confirmation.html).toBeTruthy()
    expect(await app.payload.count({ collection: 'alert-notices', overrideAccess: true })).toMatchObject({ totalDocs: 0 })
  })

  it('confirms from the mailed link; a forged token is refused', async () => {
    const link = new URL(linksOf(confirmation).find((url) => url.includes('/alerts/confirm'))!)
    const forged = await post('/api/alerts/confirm', { s: link.searchParams.get('s'), t: 'A'.repeat(43) })
    expect(forged.status).toBe(400)
    expect(await forged.json()).toMatchObject({ error: expect.stringMatching(/not valid/) })
    const confirmed = await post('/api/alerts/confirm', { s: link.searchParams.get('s'), t: link.searchParams.get('t') })
    expect(confirmed.status).toBe(200)
    expect((await subscriptionsOf(ADDRESS))[0]).toMatchObject({ status: 'confirmed' })
  })

  it('mails one notice for the place already over the limit, and none on the next refreshes', async () => {
    await freshLoad()
    await drainQueue()
    const [notice] = await Promise.all([app.smtp.waitForMail((mail) => noticesTo(ADDRESS).includes(mail))])
    expect(notice.subject).toBe('Critical: Air quality in Santander')
    expect(notice.text).toMatch(/NO2 at [\d.]+, above 200/)
    expect(notice.text).toMatch(/Santander/)
    expect(notice.text).not.toMatch(/santander-002/)
    expect(notice.html).toMatch(/Unsubscribe/)
    expect(headerOf(notice, 'list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:3000\/api\/alerts\/unsubscribe\?s=\d+&t=[\w-]{43}>$/)
    expect(headerOf(notice, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    for (let refresh = 0; refresh < 3; refresh++) await freshLoad()
    await drainQueue()
    expect(noticesTo(ADDRESS)).toHaveLength(1)
  })

  it('mails one notice when the crossing station goes over the limit, not one per refresh, also after a restart', async () => {
    clock = ABOVE
    await freshLoad()
    await freshLoad()
    await drainQueue()
    await expect.poll(() => noticesTo(ADDRESS).length, { timeout: 10_000 }).toBe(2)
    const crossing = noticesTo(ADDRESS)[1]!
    expect(crossing.text).toMatch(/santander-002|Station|NO2 at 20\d/)
    expect(crossing.text!.match(/NO2 at/g)).toHaveLength(1)
    // What a process remembers is gone after a restart: the database still knows the places were told.
    const { forgetNoticeMemory } = await import('@/notices/entry/notices')
    forgetNoticeMemory()
    await freshLoad()
    await drainQueue()
    expect(noticesTo(ADDRESS)).toHaveLength(2)
  })

  it('holds notices during quiet hours and sends them as one digest when they end', async () => {
    const hour = new Date().getUTCHours()
    await subscribeAndConfirm(QUIET_ADDRESS, { quietHours: { from: hour, until: (hour + 2) % 24, timeZone: 'UTC' }, minimumLevel: 'info' })
    // A new period for every place: the next load claims both stations again.
    await app.payload.updateGlobal({ slug: 'site-settings', data: { alertNotices: { periodMinutes: 1 } } })
    const { forgetNoticeMemory } = await import('@/notices/entry/notices')
    forgetNoticeMemory()
    await app.payload.update({ collection: 'alert-notices', where: {}, data: { firedAt: new Date(Date.now() - 3_600_000).toISOString() }, overrideAccess: true })
    await freshLoad()
    await drainQueue()
    expect(noticesTo(QUIET_ADDRESS)).toHaveLength(0)
    const [subscription] = await subscriptionsOf(QUIET_ADDRESS)
    expect(Date.parse(subscription!.quietHours!.digestDueAt!)).toBeGreaterThan(Date.now())
    expect((await app.payload.count({ collection: 'held-alert-notices', overrideAccess: true })).totalDocs).toBe(2)
    // The digest waits for the end of the quiet hours; the test makes them end now.
    const { docs: digests } = await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'sendAlertDigest' } }, overrideAccess: true })
    expect(digests).toHaveLength(1)
    expect(Date.parse(digests[0]!.waitUntil!)).toBe(Date.parse(subscription!.quietHours!.digestDueAt!))
    await drainQueue()
    expect(noticesTo(QUIET_ADDRESS)).toHaveLength(0)
    await app.payload.update({ collection: 'payload-jobs', id: digests[0]!.id, data: { waitUntil: new Date(Date.now() - 1000).toISOString() }, overrideAccess: true })
    await drainQueue()
    const digest = await app.smtp.waitForMail((mail) => mail.envelopeTo.includes(QUIET_ADDRESS) && /quiet hours/.test(mail.subject ?? ''))
    expect(digest.subject).toBe('2 alerts during your quiet hours in Santander')
    expect(digest.text!.match(/NO2 at/g)).toHaveLength(2)
    expect((await app.payload.count({ collection: 'held-alert-notices', overrideAccess: true })).totalDocs).toBe(0)
  })

  it('does the same work before it answers for a new, a pending and a confirmed address: one deferred mail, no subscription read or written', async () => {
    const fresh = `timing-new-${process.pid}@example.org`
    const pending = `timing-pending-${process.pid}@example.org`
    await post('/api/alerts/subscribe', { email: pending, layer: layer.id, city: 'santander', minimumLevel: 'warning' })
    await drainQueue()
    const stored = async () => JSON.stringify((await app.payload.find({ collection: 'alert-subscriptions', overrideAccess: true, showHiddenFields: true, depth: 0, limit: 100, sort: 'id' })).docs)
    const waiting = async () => (await pendingMailJobs(app.payload)).totalDocs
    const [rowsBefore, jobsBefore] = [await stored(), await waiting()]
    for (const email of [fresh, pending, ADDRESS]) {
      expect((await post('/api/alerts/subscribe', { email, layer: layer.id, city: 'santander', minimumLevel: 'warning' })).status).toBe(202)
    }
    expect(await waiting()).toBe(jobsBefore + 3)
    expect(await stored()).toBe(rowsBefore)
    await drainQueue()
    expect((await subscriptionsOf(fresh)).map((row) => row.status)).toEqual(['pending'])
    await app.smtp.waitForMail((mail) => mail.envelopeTo.includes(ADDRESS) && /already/i.test(mail.subject ?? ''))
  })

  it('unsubscribes with one click (RFC 8058) and erases the subscriber', async () => {
    const notice = noticesTo(ADDRESS)[0]!
    const oneClick = headerOf(notice, 'list-unsubscribe').slice(1, -1).replace('http://127.0.0.1:3000', app.baseUrl)
    const response = await fetch(oneClick, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })
    expect(response.status).toBe(200)
    expect(await subscriptionsOf(ADDRESS)).toHaveLength(0)
    // Nothing kept anywhere names the address: no subscription, no held notice, no waiting mail.
    const jobs = await app.payload.find({ collection: 'payload-jobs', limit: 1000, overrideAccess: true, depth: 0 })
    expect(JSON.stringify(jobs.docs.filter((job) => !job.completedAt))).not.toContain(ADDRESS)
    // The link works once; using it again changes nothing and says the same.
    expect((await fetch(oneClick, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(200)
    const before = noticesTo(ADDRESS).length
    clock += CROSSING_CYCLE_MS * 3
    await freshLoad()
    await drainQueue()
    expect(noticesTo(ADDRESS)).toHaveLength(before)
  })
})
