import type { ReceivedMail, SmtpCatcher } from '../../demo/mail/smtp'

/**
 * The tests' SMTP server: a real one (smtp-server + mailparser, demo/mail/smtp.ts, which the demo's
 * mail catcher also runs), on a free port, collecting parsed mails; `waitForMail(predicate)`.
 */
export { linksOf, type ReceivedMail, type SmtpCatcher, startSmtpCatcher } from '../../demo/mail/smtp'

/** The settings that turn email on: mail from `from` to the SMTP server `smtp`. */
export const mailSettings = (smtp: SmtpCatcher, from: string) => ({ SMTP_URL: smtp.url, EMAIL_FROM: from })

/** The mails `smtp` has received for `address` (its envelope's recipients, where the mail really went). */
export const mailsTo = (smtp: SmtpCatcher, address: string): ReceivedMail[] => smtp.mails.filter((mail) => mail.envelopeTo.includes(address))
