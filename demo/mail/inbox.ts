import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { type ReceivedMail, type SmtpCatcher, startSmtpCatcher } from './smtp'

/**
 * The demo's mail catcher: an SMTP server on 127.0.0.1 that keeps the last 200 mails in memory,
 * and a small web inbox that lists them (newest first) and shows each with its links clickable,
 * its HTML part in a sandboxed frame (no scripts) and its raw source (.eml). Nothing leaves the
 * machine. `npm run demo` starts it when no SMTP server is configured.
 */

export type MailCatcher = { smtpUrl: string; inboxUrl: string; smtp: SmtpCatcher; close: () => Promise<void> }

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!)

/** Plain text as HTML with its http(s) links clickable. */
const linkified = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`)

const addresses = (mail: ReceivedMail, header: 'from' | 'to') => {
  const value = mail[header]
  const list = Array.isArray(value) ? value : value ? [value] : []
  return list.map((entry) => entry.text).join(', ')
}

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a1a; line-height: 1.5 }
table { border-collapse: collapse; width: 100% } th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top }
pre { white-space: pre-wrap; background: #f6f6f6; padding: 1rem; border-radius: 4px } iframe { width: 100%; min-height: 24rem; border: 1px solid #ddd }
dt { font-weight: 600 } dd { margin: 0 0 0.5rem }
</style></head><body>${body}</body></html>`
}

function listPage(mails: ReceivedMail[]) {
  const rows = [...mails]
    .reverse()
    .map(
      (mail) =>
        `<tr><td>${escapeHtml(dateTime.format(mail.receivedAt))}</td><td>${escapeHtml(mail.envelopeTo.join(', '))}</td><td><a href="/mail/${mail.id}">${escapeHtml(mail.subject ?? '(no subject)')}</a></td></tr>`,
    )
    .join('\n')
  return page(
    'Demo inbox',
    `<h1>Demo inbox</h1>
<p>Every mail the dashboard sends in the demo lands here (nothing leaves this machine). Reload to see new ones.</p>
${mails.length === 0 ? '<p>No mail yet. Try “Forgot password?” on the admin’s sign-in page.</p>' : `<table><thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  )
}

function mailPage(mail: ReceivedMail) {
  const html = typeof mail.html === 'string' ? mail.html : ''
  // Links in the HTML part open in a new tab; the frame runs no scripts.
  const framed = html.replace(/<head>/i, '<head><base target="_blank">')
  return page(
    mail.subject ?? 'Mail',
    `<p><a href="/">← All mail</a></p>
<h1>${escapeHtml(mail.subject ?? '(no subject)')}</h1>
<dl><dt>From</dt><dd>${escapeHtml(addresses(mail, 'from'))}</dd><dt>To</dt><dd>${escapeHtml(addresses(mail, 'to'))}</dd>
<dt>Received</dt><dd>${escapeHtml(dateTime.format(mail.receivedAt))}</dd></dl>
<h2>Plain text</h2><pre>${linkified(mail.text ?? '')}</pre>
${html ? `<h2>HTML</h2><iframe title="The mail's HTML part" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(framed)}"></iframe>` : ''}
<p><a href="/mail/${mail.id}.eml">Raw source (.eml)</a></p>`,
  )
}

export async function startMailCatcher({ smtpPort = 0, inboxPort = 0 }: { smtpPort?: number; inboxPort?: number } = {}): Promise<MailCatcher> {
  const smtp = await startSmtpCatcher({ port: smtpPort, keep: 200 })
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://inbox.invalid')
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; frame-src 'self'",
        'x-content-type-options': 'nosniff',
      })
      response.end(body)
    }
    if (request.method !== 'GET') return send(405, 'text/plain', 'Method not allowed')
    if (url.pathname === '/') return send(200, 'text/html', listPage(smtp.mails))
    const match = /^\/mail\/(\d+)(\.eml)?$/.exec(url.pathname)
    const mail = match && smtp.mails.find((candidate) => candidate.id === Number(match[1]))
    if (!mail) return send(404, 'text/html', page('Not found', '<p>No such mail (the inbox keeps the last 200). <a href="/">All mail</a></p>'))
    return match[2] ? send(200, 'message/rfc822', mail.raw) : send(200, 'text/html', mailPage(mail))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(inboxPort, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    smtpUrl: smtp.url,
    inboxUrl: `http://127.0.0.1:${port}`,
    smtp,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await smtp.close()
    },
  }
}
