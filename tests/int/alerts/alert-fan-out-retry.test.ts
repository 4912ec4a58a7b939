import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import type { AlertNotice, MapLayer } from '@/payload-types'

import { mailsTo } from '../../helpers/smtp'
import { runMailQueue } from '../helpers/mailQueue'
import { type StartedPayload, startPayload } from '../helpers/payload'

/**
 * A notice fan-out that fails midway (its database write for the second subscriber is refused
 * once) and is retried: every subscriber gets the notice exactly once, at a real SMTP server that
 * also refuses one mail on the way (the mail queue retries that mail alone).
 */

let app: StartedPayload
let layer: MapLayer
let notice: AlertNotice

const SUBSCRIBERS = [1, 2, 3].map((index) => `fan-out-${index}-${process.pid}@example.org`)

/** Jobs waiting out a retry's backoff may run now (the test does not wait out the seconds). */
async function endBackoffs() {
  const { docs } = await app.payload.find({ collection: 'payload-jobs', where: { and: [{ completedAt: { exists: false } }, { waitUntil: { exists: true } }] }, overrideAccess: true, limit: 100 })
  for (const job of docs) await app.payload.db.updateJobs({ id: job.id, data: { waitUntil: null } })
}

beforeAll(async () => {
  app = await startPayload({ mailFrom: 'City Dashboard <alerts@city.example>' })
  layer = await app.payload.create({
    collection: 'map-layers',
    data: { name: `Fan-out layer ${process.pid}`, entityType: 'AirQualityObserved', attributes: ['no2'], refreshSeconds: 60, maxFeatures: 100 },
  })
  for (const email of SUBSCRIBERS) {
    await app.payload.create({
      collection: 'alert-subscriptions',
      data: { email, subscriberKey: `fan-out-${email}`, secret: `secret-${email}`, layer: layer.id, city: '', minimumLevel: 'warning', status: 'confirmed' },
      overrideAccess: true,
    })
  }
  const place = `fan-out-${process.pid}`
  notice = await app.payload.create({
    collection: 'alert-notices',
    data: { key: `${place}#1`, place, sequence: 1, layer: layer.id, city: '', featureId: 'station-1', placeName: 'Station 1', level: 'critical', message: 'NO2 at 250', firedAt: new Date().toISOString() },
    overrideAccess: true,
  })
})

afterAll(async () => {
  vi.restoreAllMocks()
  // The alert files share the database, and count its notices.
  await app?.payload.delete({ collection: 'alert-subscriptions', where: { layer: { equals: layer?.id } }, overrideAccess: true })
  await app?.payload.delete({ collection: 'alert-notices', where: { layer: { equals: layer?.id } }, overrideAccess: true })
  await app?.payload.delete({ collection: 'map-layers', id: layer?.id, overrideAccess: true })
  await app?.close()
})

describe('a fan-out retried after a partial failure', () => {
  it('mails each subscriber the notice exactly once', async () => {
    const { FAN_OUT_TASK } = await import('@/notices/entry/notices')
    const queue = app.payload.jobs.queue.bind(app.payload.jobs)
    let mailsQueued = 0
    // The second subscriber's mail cannot be stored, once: the fan-out fails there.
    vi.spyOn(app.payload.jobs, 'queue').mockImplementation(async (args) => {
      if ((args as { task?: string }).task === 'sendMail' && ++mailsQueued === 2) throw new Error('The database refused the write')
      return queue(args as never)
    })
    await app.payload.jobs.queue({ task: FAN_OUT_TASK, queue: 'email', input: { notices: [String(notice.id)] } })

    await runMailQueue(app.payload)
    expect(mailsQueued).toBe(2)
    // The first subscriber's mail was stored before the failure; it is refused once by the server.
    app.smtp.setMode('reject')
    await runMailQueue(app.payload)
    app.smtp.setMode('accept')

    for (let round = 0; round < 6; round++) {
      await endBackoffs()
      await runMailQueue(app.payload)
    }
    await Promise.all(SUBSCRIBERS.map((email) => app.smtp.waitForMail((mail) => mail.envelopeTo.includes(email))))
    for (const email of SUBSCRIBERS) {
      expect(mailsTo(app.smtp, email).filter((mail) => /^Critical:/.test(mail.subject ?? '')).length, email).toBe(1)
    }
    const pending = await app.payload.find({ collection: 'payload-jobs', where: { completedAt: { exists: false } }, overrideAccess: true })
    expect(pending.docs.filter((job) => job.taskSlug === FAN_OUT_TASK || job.taskSlug === 'sendMail')).toHaveLength(0)
  })
})
