import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { type SmtpCatcher, startSmtpCatcher } from '../../helpers/smtp'
import { startPayload } from '../helpers/payload'

// Mail leaves through the jobs queue to a real SMTP server started here: queuing never waits for
// the server, a refusing server leaves the mail queued for a retry, and a sent mail's job is gone.

let payload: Payload
let smtp: SmtpCatcher
let email: typeof import('@/email/entry')

const runMailQueue = () => payload.jobs.run({ queue: 'email', limit: 50 })
const queuedMails = async () => (await payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'sendMail' } }, limit: 100 })).docs

beforeAll(async () => {
  smtp = await startSmtpCatcher()
  vi.stubEnv('SMTP_URL', smtp.url)
  vi.stubEnv('EMAIL_FROM', 'City Dashboard <noreply@city.example>')
  ;({ payload } = await startPayload())
  // The integration files share one database: the site's name the mails are signed with is set here.
  await payload.updateGlobal({ slug: 'site-settings', data: { title: 'City Dashboard' }, overrideAccess: true })
  email = await import('@/email/entry')
})

afterAll(async () => {
  email?.closeMailTransport()
  await payload?.destroy()
  await smtp?.close()
  vi.unstubAllEnvs()
})

const send = (to: string, subject: string) =>
  email.queueMail(payload, email.currentEmailSettings()!, { to, subject, blocks: ['Hello', { label: 'Open', url: 'http://127.0.0.1:3000/x' }] })

describe('the mail queue', () => {
  it('delivers a queued mail over SMTP with a plain-text part, an HTML part and the site name, then forgets it', async () => {
    await send('queue-1@example.org', 'First mail')
    expect(smtp.mails.find((mail) => mail.subject === 'First mail')).toBeUndefined()
    await runMailQueue()
    const mail = await smtp.waitForMail((candidate) => candidate.subject === 'First mail')
    expect(mail.envelopeTo).toEqual(['queue-1@example.org'])
    expect(mail.from?.value).toEqual([{ name: 'City Dashboard', address: 'noreply@city.example' }])
    expect(mail.text).toContain('Open:\nhttp://127.0.0.1:3000/x')
    expect(mail.text).toContain('— City Dashboard')
    expect(mail.html).toContain('<a href="http://127.0.0.1:3000/x">Open</a>')
    expect(await queuedMails()).toEqual([])
  })

  it('queues at once while the server stalls, and keeps a refused mail queued until the server takes it', async () => {
    smtp.setMode('hang')
    const started = performance.now()
    await send('queue-2@example.org', 'Second mail')
    // Queuing is a database write, not an SMTP conversation (the server would never answer).
    expect(performance.now() - started).toBeLessThan(5_000)

    smtp.setMode('reject')
    await runMailQueue()
    const [waiting] = await queuedMails()
    expect(waiting).toMatchObject({ hasError: false, totalTried: 1 })
    expect(smtp.mails.some((mail) => mail.subject === 'Second mail')).toBe(false)

    smtp.setMode('accept')
    // The retry's backoff has not passed yet: run it as the cron would once it has.
    await payload.update({ collection: 'payload-jobs', id: waiting!.id, data: { waitUntil: new Date(Date.now() - 1000).toISOString() } })
    await runMailQueue()
    await smtp.waitForMail((mail) => mail.subject === 'Second mail')
    expect(await queuedMails()).toEqual([])
  })

  it('sends a run of mails over the pooled connections, which closeMailTransport() ends', async () => {
    email.closeMailTransport()
    const openedBefore = smtp.connections.opened
    const subjects = Array.from({ length: 12 }, (_, index) => `Pooled mail ${index + 1}`)
    for (const [index, subject] of subjects.entries()) await send(`pooled-${index}@example.org`, subject)
    await runMailQueue()
    for (const subject of subjects) await smtp.waitForMail((mail) => mail.subject === subject)
    // Twelve mails, not twelve handshakes: at most the pool's connections were opened.
    expect(smtp.connections.opened - openedBefore).toBeLessThanOrEqual(5)
    expect(smtp.connections.open).toBeGreaterThan(0)

    email.closeMailTransport()
    await vi.waitFor(() => expect(smtp.connections.open).toBe(0), { timeout: 10_000 })
  })
})
