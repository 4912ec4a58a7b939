import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import type { Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { type MailCatcher, startMailCatcher } from '../../../demo/mail/inbox'
import { composeMail } from '@/email/server/compose'

// The demo's mail catcher (`npm run demo`): mail sent by Payload's nodemailer adapter, as the
// dashboard sends it, is listed in the web inbox and shown with its links clickable and its
// HTML part framed without scripts; nothing in a mail can script the inbox.

let catcher: MailCatcher

beforeAll(async () => {
  catcher = await startMailCatcher()
  return () => catcher.close()
})

describe('the demo mail inbox', () => {
  it('lists a sent mail and shows it with its link clickable', async () => {
    const adapter = await nodemailerAdapter({
      defaultFromAddress: 'dashboard@demo.localhost',
      defaultFromName: 'Demo',
      transportOptions: { url: catcher.smtpUrl } as never,
      skipVerify: true,
    })
    const mail = composeMail(
      {
        to: 'citizen@example.org',
        subject: 'Reset your password for <b>Santander</b>',
        siteName: 'Santander',
        blocks: ['Hello <script>alert(1)</script>', { label: 'Choose a new password', url: 'http://localhost:3000/admin/reset/abc123' }],
      },
      { address: 'dashboard@demo.localhost' },
    )
    await adapter({ payload: {} as Payload }).sendEmail(mail)

    const list = await (await fetch(catcher.inboxUrl)).text()
    expect(list).toContain('citizen@example.org')
    expect(list).toContain('Reset your password for &lt;b&gt;Santander&lt;/b&gt;')
    const id = /href="\/mail\/(\d+)"/.exec(list)?.[1]
    expect(id).toBeDefined()

    const shown = await fetch(`${catcher.inboxUrl}/mail/${id}`)
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await shown.text()
    expect(html).toContain('<a href="http://localhost:3000/admin/reset/abc123" target="_blank" rel="noopener noreferrer">')
    expect(html).not.toContain('<script>')
    expect(html).toMatch(/<iframe [^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"/)

    const raw = await fetch(`${catcher.inboxUrl}/mail/${id}.eml`)
    expect(raw.headers.get('content-type')).toContain('message/rfc822')
    expect(await raw.text()).toContain('Subject: Reset your password')
    expect((await fetch(`${catcher.inboxUrl}/mail/999`)).status).toBe(404)
  })
})
