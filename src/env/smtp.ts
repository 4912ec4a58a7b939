import { z } from 'zod'

/**
 * The mail settings read from the environment (pure: no Payload, no transport). Email is on when an
 * SMTP server is named (SMTP_URL, or SMTP_HOST with its port and account) together with EMAIL_FROM.
 */

export type SmtpSource = {
  SMTP_URL?: string
  SMTP_HOST?: string
  SMTP_PORT?: number
  SMTP_USER?: string
  SMTP_PASSWORD?: string
  EMAIL_FROM?: string
  MAIL_SEND_RATE?: number
}

export type MailSender = { name?: string; address: string }

export type SmtpTransportOptions = {
  host: string
  port: number
  /** TLS from the first byte (smtps://, port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean
  auth?: { user: string; pass: string }
}

export type EmailSettings = {
  transport: SmtpTransportOptions
  from: MailSender
  /** Mails per second this process sends at most (MAIL_SEND_RATE). */
  sendRate: number
}

/**
 * Tens of mails a second: 10,000 alert notices go out in minutes, while the pooled SMTP
 * connections, the queue's database writes and the sending process's CPU stay a small share
 * beside the citizens' pages (docs/performance.md, alert notices).
 */
export const DEFAULT_MAIL_SEND_RATE = 30

const emailAddress = z.email()

// `Name <address>`, `"Name" <address>` or a bare address.
const NAMED_ADDRESS = /^\s*(?:"?([^"<>]*?)"?\s*<([^<>\s]+)>|([^<>\s]+))\s*$/

/** EMAIL_FROM as a sender, or a message saying what is wrong with it. */
export function parseSender(value: string): MailSender | string {
  if (/[\r\n\u0000-\u001f\u007f]/.test(value)) return 'must not contain line breaks or control characters'
  const match = NAMED_ADDRESS.exec(value)
  const address = match?.[2] ?? match?.[3]
  if (!address || !emailAddress.safeParse(address).success) return 'must be an address, or Name <address>'
  const name = match?.[1]?.trim()
  return name ? { name, address } : { address }
}

const DEFAULT_PORT = { smtp: 587, smtps: 465 } as const

function transportOf(source: SmtpSource): SmtpTransportOptions | undefined {
  if (source.SMTP_URL) {
    const url = new URL(source.SMTP_URL)
    const scheme = url.protocol === 'smtps:' ? 'smtps' : 'smtp'
    const user = decodeURIComponent(url.username)
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : DEFAULT_PORT[scheme],
      secure: scheme === 'smtps',
      ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    }
  }
  if (!source.SMTP_HOST) return undefined
  const port = source.SMTP_PORT ?? DEFAULT_PORT.smtp
  return {
    host: source.SMTP_HOST,
    port,
    secure: port === 465,
    ...(source.SMTP_USER ? { auth: { user: source.SMTP_USER, pass: source.SMTP_PASSWORD ?? '' } } : {}),
  }
}

/** What is inconsistent in the mail settings, by setting name (empty when they are usable or absent). */
export function smtpProblems(source: SmtpSource): Array<{ path: keyof SmtpSource; message: string }> {
  const problems: Array<{ path: keyof SmtpSource; message: string }> = []
  const server = Boolean(source.SMTP_URL || source.SMTP_HOST)
  if (source.SMTP_URL && source.SMTP_HOST) problems.push({ path: 'SMTP_HOST', message: 'set either SMTP_URL or SMTP_HOST, not both' })
  if (!source.SMTP_HOST) {
    for (const path of ['SMTP_PORT', 'SMTP_USER', 'SMTP_PASSWORD'] as const) {
      if (source[path] !== undefined && !source.SMTP_URL) problems.push({ path, message: 'needs SMTP_HOST' })
    }
  }
  if (source.SMTP_HOST && Boolean(source.SMTP_USER) !== Boolean(source.SMTP_PASSWORD)) {
    problems.push({ path: source.SMTP_USER ? 'SMTP_PASSWORD' : 'SMTP_USER', message: 'SMTP_USER and SMTP_PASSWORD go together' })
  }
  if (server && !source.EMAIL_FROM) problems.push({ path: 'EMAIL_FROM', message: 'required when an SMTP server is set (the sender address, or Name <address>)' })
  if (!server && source.EMAIL_FROM) problems.push({ path: 'EMAIL_FROM', message: 'is set but no SMTP server is: set SMTP_URL or SMTP_HOST, or unset EMAIL_FROM' })
  if (source.EMAIL_FROM) {
    const sender = parseSender(source.EMAIL_FROM)
    if (typeof sender === 'string') problems.push({ path: 'EMAIL_FROM', message: sender })
  }
  return problems
}

/** The mail settings, or undefined when email is off (no SMTP server configured). */
export function emailSettings(source: SmtpSource): EmailSettings | undefined {
  const transport = transportOf(source)
  if (!transport || !source.EMAIL_FROM) return undefined
  const from = parseSender(source.EMAIL_FROM)
  if (typeof from === 'string') return undefined
  return { transport, from, sendRate: source.MAIL_SEND_RATE ?? DEFAULT_MAIL_SEND_RATE }
}
