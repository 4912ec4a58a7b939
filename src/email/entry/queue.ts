import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import nodemailer, { type Transporter } from 'nodemailer'
import type { EmailAdapter, Payload, PayloadRequest, SendEmailOptions, TaskConfig } from 'payload'

import { readGlobal, siteTitle } from '@/site/globals'

import { composeMail, MailHeaderError, type MailContent } from '../server/compose'
import type { EmailSettings } from '@/env/smtp'

/**
 * Mail leaves through the jobs queue, never from a request: queuing is one row written with the
 * request's transaction (a rolled-back change sends nothing), and the `sendMail` task talks SMTP
 * later with retries, so a slow or failing server never slows a page, and a restart loses nothing
 * (the row waits in the database). A sent mail's job is deleted with its recipient and content.
 */

export const MAIL_QUEUE = 'email'
export const SEND_MAIL_TASK = 'sendMail'

/**
 * A mail made when the queue sends it, not when a request asks: the request only writes this
 * row, the same for every identifier it names (an address with an account or without), so its
 * answer takes the same time whatever the state behind it. `compose` names one of the composers
 * given to the task; undefined from it means nothing to send (no account, say).
 */
export type DeferredMail = { compose: string; input: Record<string, unknown> }
export type MailComposer = (payload: Payload, input: Record<string, unknown>, settings: EmailSettings) => Promise<SendEmailOptions | undefined>

type SendMailIO = { input: { mail: SendEmailOptions | DeferredMail }; output: { messageId?: string } }

const isDeferred = (mail: SendEmailOptions | DeferredMail): mail is DeferredMail => typeof (mail as DeferredMail).compose === 'string'

// SMTP waits are bounded: a stalled server fails the attempt (and the queue retries) instead of
// holding the jobs runner for nodemailer's default minutes. A pooled connection left idle this
// long is closed too.
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 }
/** Connections to the SMTP server one process keeps open at most. */
const SMTP_POOL_CONNECTIONS = 5

let pool: { transport: Transporter; adapter: Promise<ReturnType<EmailAdapter>> } | undefined

/**
 * Payload's nodemailer adapter on a pooled transport, created on the first mail sent: the mails of
 * a burst share a few SMTP connections instead of one handshake each, and leave at
 * `settings.sendRate` a second at most (nodemailer's pool paces them), so a run of the queue is
 * background work beside the pages, however many jobs it claimed.
 */
function smtp(settings: EmailSettings, payload: Payload) {
  if (!pool) {
    const transport = nodemailer.createTransport({
      ...settings.transport,
      ...SMTP_TIMEOUTS,
      pool: true,
      maxConnections: SMTP_POOL_CONNECTIONS,
      rateDelta: 1_000,
      rateLimit: settings.sendRate,
    })
    const adapter = nodemailerAdapter({
      defaultFromAddress: settings.from.address,
      defaultFromName: settings.from.name ?? '',
      transport,
      // Not at start-up: an unreachable server must not delay or fail the boot; the queue retries.
      skipVerify: true,
    }).then((create) => create({ payload }))
    pool = { transport, adapter }
  }
  return pool.adapter
}

/** Closes this process's SMTP connections (shutdown, tests); the next mail opens new ones. */
export function closeMailTransport() {
  pool?.transport.close()
  pool = undefined
}

/** The task that hands one queued mail (made by its composer first, if deferred) to the SMTP server; a refusal or timeout throws, so the queue retries it. */
export function sendMailTask(settings: EmailSettings | undefined, composers: Record<string, MailComposer> = {}): TaskConfig<SendMailIO> {
  return {
    slug: SEND_MAIL_TASK,
    label: 'Send an email',
    inputSchema: [{ name: 'mail', type: 'json', required: true }],
    outputSchema: [{ name: 'messageId', type: 'text' }],
    retries: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 } },
    handler: async ({ input, req }) => {
      if (!settings) throw new Error('Email is off (no SMTP server configured): the mail waits in the queue')
      let mail = input.mail
      if (isDeferred(mail)) {
        const composer = composers[mail.compose]
        if (!composer) throw new Error(`No composer for a deferred mail of kind ${mail.compose}`)
        const made = await composer(req.payload, mail.input, settings)
        if (!made) return { output: {} }
        mail = made
      }
      const sender = await smtp(settings, req.payload)
      const info = (await sender.sendEmail(mail)) as { messageId?: string } | undefined
      return { output: { messageId: info?.messageId } }
    },
  }
}

/** Queues `mail` for the sendMail task, in `req`'s transaction when given; not sent before `waitUntil` (a digest). */
export async function queueOutgoingMail(payload: Payload, mail: SendEmailOptions | DeferredMail, req?: PayloadRequest, waitUntil?: Date) {
  await payload.jobs.queue({ task: SEND_MAIL_TASK, queue: MAIL_QUEUE, input: { mail }, req, ...(waitUntil && { waitUntil }) })
}

/**
 * Payload's email adapter: whatever Payload itself sends is queued like every other mail (it sends
 * nothing of its own today: the reset mail is built by src/accounts/entry/passwordReset.ts).
 */
export function queuedEmailAdapter(settings: EmailSettings): EmailAdapter {
  return ({ payload }) => ({
    name: 'queued-smtp',
    defaultFromAddress: settings.from.address,
    defaultFromName: settings.from.name ?? '',
    sendEmail: (message) => queueOutgoingMail(payload, message),
  })
}

type QueuedContent = Omit<MailContent, 'siteName'>

/**
 * Composes a mail signed with the site's name (Site settings → Title, read unless the caller
 * passes it, as a fan-out of many mails does) and queues it, in `req`'s transaction when given. A
 * header value that could inject headers is logged and nothing is queued (false): the request
 * that caused the mail still gets its answer.
 */
export async function queueMail(
  payload: Payload,
  settings: EmailSettings,
  content: QueuedContent | ((siteName: string) => QueuedContent),
  req?: PayloadRequest,
  knownSiteName?: string,
): Promise<boolean> {
  const mail = await signedMail(payload, settings, content, req, knownSiteName)
  if (!mail) return false
  await queueOutgoingMail(payload, mail, req)
  return true
}

/** A mail composed and signed as queueMail does it, for a composer to hand back; undefined (logged) for a header that could inject others. */
export async function signedMail(
  payload: Payload,
  settings: EmailSettings,
  content: QueuedContent | ((siteName: string) => QueuedContent),
  req?: PayloadRequest,
  knownSiteName?: string,
): Promise<SendEmailOptions | undefined> {
  const siteName = knownSiteName ?? siteTitle(await readGlobal(payload, 'site-settings', { req }))
  try {
    return composeMail({ ...(typeof content === 'function' ? content(siteName) : content), siteName }, settings.from)
  } catch (error) {
    if (!(error instanceof MailHeaderError)) throw error
    payload.logger.error(`A mail was not sent: ${error.message}`)
    return undefined
  }
}
