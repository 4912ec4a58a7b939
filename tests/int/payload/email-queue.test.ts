import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { mailFromQueue, runMailQueue } from '../helpers/mailQueue'
import { type StartedPayload, startPayload } from '../helpers/payload'

// Mail leaves through the jobs queue to a real SMTP server started here: queuing never waits for
// the server, a refusing server leaves the mail queued for a retry, and a sent mail's job is gone.

let app: StartedPayload
let email: typeof import('@/email/entry')

const queuedMails = async () => (await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'sendMail' } }, limit: 100 })).docs

beforeAll(async () => {
  // The integration files share one database: the site's name the mails are signed with is set here.
  app = await startPayload({ mailFrom: 'City Dashboard <noreply@city.example>', site: { title: 'City Dashboard' } })
  email = await import('@/email/entry')
})

afterAll(async () => {
  email?.closeMailTransport()
  await app?.close()
})

const send = (to: string, subject: string) =>
  email.queueMail(app.payload, email.currentEmailSettings()!, { to, subject, blocks: ['Hello', { label: 'Open', url: 'http://127.0.0.1:3000/x' }] })

describe('the mail queue', () => {
  it('delivers a queued mail over SMTP with a plain-text part, an HTML part and the site name, then forgets it', async () => {
    await send('queue-1@example.org', 'First mail')
    expect(app.smtp.mails.find((mail) => mail.subject === 'First mail')).toBeUndefined()
    const mail = await mailFromQueue(app, (candidate) => candidate.subject === 'First mail')
    expect(mail.envelopeTo).toEqual(['queue-1@example.org'])
    expect(mail.from?.value).toEqual([{ name: 'City Dashboard', address: 'noreply@city.example' }])
    expect(mail.text).toContain('Open:\nhttp://127.0.0.1:3000/x')
    expect(mail.text).toContain('— City Dashboard')
    expect(mail.html).toContain('<a href="http://127.0.0.1:3000/x">Open</a>')
    expect(await queuedMails()).toEqual([])
  })

  it('queues at once while the server stalls, and keeps a refused mail queued until the server takes it', async () => {
    app.smtp.setMode('hang')
    const started = performance.now()
    await send('queue-2@example.org', 'Second mail')
    // Queuing is a database write, not an SMTP conversation (the server would never answer).
    expect(performance.now() - started).toBeLessThan(5_000)

    app.smtp.setMode('reject')
    await runMailQueue(app.payload)
    const [waiting] = await queuedMails()
    expect(waiting).toMatchObject({ hasError: false, totalTried: 1 })
    expect(app.smtp.mails.some((mail) => mail.subject === 'Second mail')).toBe(false)

    app.smtp.setMode('accept')
    // The retry's backoff has not passed yet: run it as the cron would once it has.
    await app.payload.update({ collection: 'payload-jobs', id: waiting!.id, data: { waitUntil: new Date(Date.now() - 1000).toISOString() } })
    await mailFromQueue(app, (mail) => mail.subject === 'Second mail')
    expect(await queuedMails()).toEqual([])
  })

  it('sends a run of mails over the pooled connections, which closeMailTransport() ends', async () => {
    email.closeMailTransport()
    const openedBefore = app.smtp.connections.opened
    const subjects = Array.from({ length: 12 }, (_, index) => `Pooled mail ${index + 1}`)
    for (const [index, subject] of subjects.entries()) await send(`pooled-${index}@example.org`, subject)
    await runMailQueue(app.payload)
    for (const subject of subjects) await app.smtp.waitForMail((mail) => mail.subject === subject)
    // Twelve mails, not twelve handshakes: at most the pool's connections were opened.
    expect(app.smtp.connections.opened - openedBefore).toBeLessThanOrEqual(5)
    expect(app.smtp.connections.open).toBeGreaterThan(0)

    email.closeMailTransport()
    await vi.waitFor(() => expect(app.smtp.connections.open).toBe(0), { timeout: 10_000 })
  })
})
