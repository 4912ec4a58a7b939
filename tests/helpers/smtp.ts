/**
 * The tests' SMTP server: a real one (smtp-server + mailparser, demo/mail/smtp.ts, which the demo's
 * mail catcher also runs), on a free port, collecting parsed mails; `waitForMail(predicate)`.
 */
export { linksOf, type ReceivedMail, type SmtpCatcher, startSmtpCatcher } from '../../demo/mail/smtp'
