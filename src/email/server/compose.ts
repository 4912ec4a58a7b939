import { z } from 'zod'

/**
 * Every mail the dashboard sends is built here: a plain-text part and an HTML part from the same
 * blocks, signed with the site's (city's) name. Values that end up in headers (subject, the
 * sender's display name, the recipient, extra header values) are refused when they carry line
 * breaks or other control characters: a CR/LF there would let a value add headers of its own.
 */

export class MailHeaderError extends Error {
  constructor(readonly what: string) {
    super(`${what} must not contain line breaks or control characters`)
    this.name = 'MailHeaderError'
  }
}

const CONTROL = /[\u0000-\u001f\u007f]/

/** Whether `value` could start a header of its own in a mail (CR, LF or another control character). */
export const hasControlCharacters = (value: string) => CONTROL.test(value)

/** `value` unchanged, or a MailHeaderError when it could inject a header. */
export function headerSafe(value: string, what: string): string {
  if (hasControlCharacters(value)) throw new MailHeaderError(what)
  return value
}

const recipientAddress = z.email()

/** A paragraph of text, or a link shown with its label (the text part shows the URL in full). */
export type MailBlock = string | { label: string; url: string }

export type MailContent = {
  to: string
  subject: string
  /** The site's name: the sender's display name and the signature. */
  siteName: string
  blocks: MailBlock[]
  headers?: Record<string, string>
  /** The language the mail is written in (a BCP 47 tag: the HTML part's `lang`); English unless the composer says. */
  language?: string
}

/** A mail as the email adapter sends it (a subset of nodemailer's message). */
export type OutgoingMail = {
  to: string
  from?: { name: string; address: string } | string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!)

function linkUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`Mail links are http(s) only, not ${parsed.protocol}`)
  return parsed.toString()
}

function textOf(blocks: MailBlock[], siteName: string) {
  const paragraphs = blocks.map((block) => (typeof block === 'string' ? block : `${block.label}:\n${linkUrl(block.url)}`))
  return `${[...paragraphs, `— ${siteName}`].join('\n\n')}\n`
}

const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/

function htmlOf(subject: string, blocks: MailBlock[], siteName: string, language: string) {
  const body = blocks
    .map((block) =>
      typeof block === 'string'
        ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(linkUrl(block.url))}">${escapeHtml(block.label)}</a></p>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a">
${body}
<p style="color: #555">— ${escapeHtml(siteName)}</p>
</body></html>
`
}

/** The mail, checked and rendered; throws MailHeaderError for a header value that could inject headers. */
export function composeMail(content: MailContent, sender: { address: string }): OutgoingMail {
  const subject = headerSafe(content.subject, 'The subject')
  const siteName = headerSafe(content.siteName, 'The site name')
  const to = headerSafe(content.to, 'The recipient')
  if (!recipientAddress.safeParse(to).success) throw new MailHeaderError('The recipient')
  const language = content.language ?? 'en'
  if (!LANGUAGE_TAG.test(language)) throw new Error(`A mail's language is a BCP 47 tag, not '${language.slice(0, 20)}'`)
  const headers = Object.fromEntries(
    Object.entries(content.headers ?? {}).map(([name, value]) => [headerSafe(name, 'A header name'), headerSafe(value, `The ${name} header`)]),
  )
  return {
    to,
    from: { name: siteName, address: sender.address },
    subject,
    text: textOf(content.blocks, siteName),
    html: htmlOf(subject, content.blocks, siteName, language),
    ...(Object.keys(headers).length ? { headers } : {}),
  }
}
