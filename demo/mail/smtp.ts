import type { AddressInfo } from 'node:net'

import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server that catches mail: for the tests (never a mock transport, tests/helpers/smtp.ts)
 * and for `npm run demo` (with the web inbox of ./inbox.ts). It listens on 127.0.0.1 (a free port
 * unless one is given), accepts every mail and keeps it parsed, the newest `keep` at most. Without
 * STARTTLS, as a local catcher, so that the dashboard's SMTP client talks plain SMTP to it.
 */

export type ReceivedMail = ParsedMail & {
  /** Its number in this catcher, from 1. */
  id: number
  receivedAt: Date
  /** The SMTP envelope's recipients (RCPT TO), which is where the mail really went. */
  envelopeTo: string[]
  /** The raw message as received. */
  raw: string
}

export type SmtpCatcher = {
  port: number
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string
  mails: ReceivedMail[]
  /** SMTP connections opened so far, and those open now. */
  connections: { opened: number; open: number }
  /** The first mail (already received or still to come) matching `predicate`; rejects after `timeoutMs`. */
  waitForMail: (predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>
  /** Refuse (`'reject'`, a 451 answer) or stall (`'hang'`) the next mails instead of accepting them; `'accept'` again. */
  setMode: (mode: 'accept' | 'reject' | 'hang') => void
  clear: () => void
  close: () => Promise<void>
}

/** The links of a mail's plain-text part. */
export const linksOf = (mail: ReceivedMail) => [...(mail.text ?? '').matchAll(/https?:\/\/\S+/g)].map((match) => match[0])

export async function startSmtpCatcher({ port = 0, keep = Infinity }: { port?: number; keep?: number } = {}): Promise<SmtpCatcher> {
  const mails: ReceivedMail[] = []
  let received = 0
  const waiters = new Set<{ predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }>()
  let mode: 'accept' | 'reject' | 'hang' = 'accept'
  const connections = { opened: 0, open: 0 }

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // Any user and password: tests may also check that the client authenticates.
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    logger: false,
    // A client's pooled connections stay open while idle: closing waits this long for them, not smtp-server's 30 s.
    closeTimeout: 500,
    onConnect(_session, callback) {
      connections.opened++
      connections.open++
      callback()
    },
    onClose() {
      connections.open--
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (mode === 'hang') return
        if (mode === 'reject') {
          const refusal = Object.assign(new Error('Try again later'), { responseCode: 451 })
          callback(refusal)
          return
        }
        const raw = Buffer.concat(chunks)
        simpleParser(raw)
          .then((parsed) => {
            const mail = Object.assign(parsed, {
              id: ++received,
              receivedAt: new Date(),
              envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
              raw: raw.toString('utf8'),
            })
            mails.push(mail)
            if (mails.length > keep) mails.shift()
            for (const waiter of waiters) {
              if (waiter.predicate(mail)) {
                waiters.delete(waiter)
                waiter.resolve(mail)
              }
            }
            callback()
          })
          .catch((error: Error) => callback(error))
      })
    },
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const actualPort = (server.server.address() as AddressInfo).port

  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    mails,
    connections,
    waitForMail(predicate = () => true, timeoutMs = 20_000) {
      const found = mails.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer)
            resolve(mail)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(new Error(`No matching mail within ${timeoutMs} ms (received: ${mails.map((mail) => mail.subject).join(' | ') || 'none'})`))
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    setMode: (next) => {
      mode = next
    },
    clear: () => {
      mails.length = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
