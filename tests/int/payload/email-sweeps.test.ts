import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { AlertSubscription, MapLayer } from '@/payload-types'

import { mailsTo } from '../../helpers/smtp'
import { mailFromQueue, runMailQueue } from '../helpers/mailQueue'
import { type StartedPayload, startPayload } from '../helpers/payload'

// The sweeps for stuck work (src/email/entry/sweeps.ts), on the real database and a real SMTP server:
// a mail job stranded in `processing` by a process that died is sent after all, and sign-ups to
// alert notices never confirmed are erased once their link expired.

let app: StartedPayload
let layer: MapLayer

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

beforeAll(async () => {
  app = await startPayload({ mailFrom: 'noreply@city.example' })
  layer = await app.payload.create({
    collection: 'map-layers',
    data: { name: `Sweep layer ${process.pid}`, entityType: 'AirQualityObserved', attributes: ['no2'], refreshSeconds: 60, maxFeatures: 100 },
  })
})

afterAll(async () => {
  // The integration files share the database: what this one made goes.
  await app?.payload.delete({ collection: 'alert-subscriptions', where: { layer: { equals: layer?.id } }, overrideAccess: true })
  await app?.payload.delete({ collection: 'map-layers', id: layer?.id, overrideAccess: true })
  await app?.close()
})

/** A mail job as a process leaves it when it dies mid-send: `processing`, last touched `minutes` ago. */
async function strandedMail(to: string, minutes: number) {
  const { queueMail, currentEmailSettings } = await import('@/email/entry')
  await queueMail(app.payload, currentEmailSettings()!, { to, subject: 'Stranded', blocks: ['A mail whose sender died.'] })
  const { docs } = await app.payload.find({ collection: 'payload-jobs', where: { 'input.mail.to': { equals: to } }, overrideAccess: true })
  await app.payload.db.updateJobs({ id: docs[0]!.id, data: { processing: true, updatedAt: minutesAgo(minutes) } })
  return docs[0]!.id
}

describe('jobs stranded in processing', () => {
  it('are left alone by Payload, and sent after the sweep hands them back to the queue', async () => {
    const { releaseStalledJobs } = await import('@/email/entry/sweeps')
    const to = `stranded-${process.pid}@example.org`
    await strandedMail(to, 20)

    // Payload's runner never retries a job marked processing: without the sweep the mail waits for ever.
    await runMailQueue(app.payload)
    expect(mailsTo(app.smtp, to)).toEqual([])

    expect(await releaseStalledJobs(app.payload)).toBeGreaterThanOrEqual(1)
    await mailFromQueue(app, (mail) => mail.envelopeTo.includes(to))
  })

  it('leaves a job that is still being worked on (updated recently)', async () => {
    const { releaseStalledJobs } = await import('@/email/entry/sweeps')
    const to = `busy-${process.pid}@example.org`
    const id = await strandedMail(to, 2)
    await releaseStalledJobs(app.payload)
    const job = await app.payload.findByID({ collection: 'payload-jobs', id, overrideAccess: true })
    expect(job.processing).toBe(true)
    // Tidy: the shared database's mail queue must not keep it.
    await app.payload.delete({ collection: 'payload-jobs', id, overrideAccess: true })
  })
})

describe('unconfirmed alert subscriptions', () => {
  async function subscription(email: string, status: 'pending' | 'confirmed', createdAt: string) {
    const created = (await app.payload.create({
      collection: 'alert-subscriptions',
      data: { email, subscriberKey: `sweep-${email}`, secret: `secret-${email}`, layer: layer.id, city: '', minimumLevel: 'warning', status },
      overrideAccess: true,
    })) as AlertSubscription
    await app.payload.db.updateOne({ collection: 'alert-subscriptions', id: created.id, data: { createdAt } })
    return created
  }

  const exists = async (id: number | string) => (await app.payload.find({ collection: 'alert-subscriptions', where: { id: { equals: id } }, overrideAccess: true })).totalDocs === 1

  it('are erased with their waiting mails once the confirmation link expired; fresh and confirmed ones stay', async () => {
    const { sweepStuckWork } = await import('@/email/entry/sweeps')
    const { deleteExpiredSubscriptions } = await import('@/notices/entry/subscriptions')
    const expired = await subscription(`expired-${process.pid}@example.org`, 'pending', minutesAgo(49 * 60))
    const fresh = await subscription(`fresh-${process.pid}@example.org`, 'pending', minutesAgo(60))
    const confirmed = await subscription(`confirmed-${process.pid}@example.org`, 'confirmed', minutesAgo(30 * 24 * 60))
    // The confirmation mail that never got out (the server refused it until its retries ran out) goes too.
    const { queueMail, currentEmailSettings } = await import('@/email/entry')
    await queueMail(app.payload, currentEmailSettings()!, { to: expired.email, subject: 'Confirm', blocks: ['Confirm?'] })

    await sweepStuckWork(app.payload, [deleteExpiredSubscriptions])

    expect(await exists(expired.id)).toBe(false)
    expect(await exists(fresh.id)).toBe(true)
    expect(await exists(confirmed.id)).toBe(true)
    const waiting = await app.payload.find({ collection: 'payload-jobs', where: { 'input.mail.to': { equals: expired.email } }, overrideAccess: true })
    expect(waiting.totalDocs).toBe(0)
  })
})
