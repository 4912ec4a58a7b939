import type { Payload } from 'payload'

import type { ReceivedMail, SmtpCatcher } from '../../helpers/smtp'

/**
 * Runs the mail queue once, as the production server's cron does every few seconds: the mail jobs
 * due now are sent (a refused one stays queued for its retry).
 */
export const runMailQueue = (payload: Payload) => payload.jobs.run({ queue: 'email', limit: 100, silent: true })

/** The mail jobs not done yet: due, deferred, or waiting for a retry. */
export const pendingMailJobs = (payload: Payload) =>
  payload.find({ collection: 'payload-jobs', where: { queue: { equals: 'email' }, completedAt: { exists: false } }, overrideAccess: true, limit: 100 })

/** Runs the mail queue, then waits for the mail `predicate` picks to reach the SMTP server (sent by this run or an earlier one). */
export async function mailFromQueue({ payload, smtp }: { payload: Payload; smtp: SmtpCatcher }, predicate: (mail: ReceivedMail) => boolean) {
  await runMailQueue(payload)
  return smtp.waitForMail(predicate)
}
