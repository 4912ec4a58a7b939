import 'server-only'

import type { Payload, Where } from 'payload'

import type { JobsHealth, QueueHealth } from './check'

const DAY_MS = 24 * 3_600_000

/** What waits in `queue` (or every queue but it) and what failed in the last day, read from Payload's jobs. */
async function queueHealth(payload: Payload, queue: Where, now: Date): Promise<QueueHealth> {
  const due: Where = {
    and: [
      queue,
      { completedAt: { exists: false } },
      { hasError: { not_equals: true } },
      { or: [{ waitUntil: { exists: false } }, { waitUntil: { less_than_equal: now.toISOString() } }] },
    ],
  }
  const [waiting, failed] = await Promise.all([
    payload.find({ collection: 'payload-jobs', where: due, sort: 'createdAt', limit: 1, depth: 0, overrideAccess: true, select: { createdAt: true, waitUntil: true } }),
    payload.count({ collection: 'payload-jobs', where: { and: [queue, { hasError: { equals: true } }, { updatedAt: { greater_than: new Date(now.getTime() - DAY_MS).toISOString() } }] }, overrideAccess: true }),
  ])
  const oldest = waiting.docs[0] as { createdAt?: string; waitUntil?: string | null } | undefined
  // A job waits from when it became due: its creation, or the time a retry or a schedule set.
  const dueSince = oldest ? Math.max(Date.parse(oldest.createdAt ?? ''), Date.parse(oldest.waitUntil ?? '') || 0) : undefined
  return {
    waiting: waiting.totalDocs,
    oldestWaitingSeconds: dueSince === undefined || Number.isNaN(dueSince) ? null : Math.max(0, Math.round((now.getTime() - dueSince) / 1000)),
    failedLastDay: failed.totalDocs,
  }
}

/** The mail queue and the others, for /api/health. */
export async function jobsHealth(payload: Payload, { mailQueue, mailEnabled, now = new Date() }: { mailQueue: string; mailEnabled: boolean; now?: Date }): Promise<JobsHealth> {
  const [mail, other] = await Promise.all([
    queueHealth(payload, { queue: { equals: mailQueue } }, now),
    queueHealth(payload, { queue: { not_equals: mailQueue } }, now),
  ])
  return { mail: { enabled: mailEnabled, ...mail }, other }
}
