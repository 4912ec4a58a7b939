import { env } from '@/env'

import { emailSettings } from '@/env/smtp'

export { composeMail, headerSafe, MailHeaderError, type MailBlock, type MailContent, type OutgoingMail } from '../server/compose'
export { closeMailTransport, type DeferredMail, MAIL_QUEUE, type MailComposer, queueMail, queueOutgoingMail, queuedEmailAdapter, SEND_MAIL_TASK, sendMailTask, signedMail } from './queue'
export { emailSettings, type EmailSettings } from '@/env/smtp'

/** The mail settings of this process, or undefined when email is off. */
export const currentEmailSettings = () => emailSettings(env())

/** Whether this server can send mail (an SMTP server and EMAIL_FROM are configured). */
export const emailEnabled = () => currentEmailSettings() !== undefined
