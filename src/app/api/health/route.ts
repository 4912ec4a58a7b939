import type { Payload, Where } from 'payload'

import { env } from '@/env'
import { userIsMember } from '@/access'
import { emailEnabled, MAIL_QUEUE } from '@/email/entry'
import { createHealthCheck, type JobsHealth, type QueueHealth, withoutVersions } from '@/health/check'
import { liveHealth } from '@/layers/entry/live'
import { brokerClient } from '@/layers/entry/services'
import { withErrorHandling } from '@/server/errors'
import { isReady } from '@/server/warmUp'
import { payloadClient, signedInUser } from '@/site/payload'
import { APP_VERSION } from '@/version'

export const dynamic = 'force-dynamic'

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
async function jobsHealth(payload: Payload, { mailQueue, mailEnabled, now = new Date() }: { mailQueue: string; mailEnabled: boolean; now?: Date }): Promise<JobsHealth> {
  const [mail, other] = await Promise.all([
    queueHealth(payload, { queue: { equals: mailQueue } }, now),
    queueHealth(payload, { queue: { not_equals: mailQueue } }, now),
  ])
  return { mail: { enabled: mailEnabled, ...mail }, other }
}

const checkHealth = createHealthCheck({
  checkDatabase: async () => {
    const payload = await payloadClient()
    await payload.count({ collection: 'users', overrideAccess: true })
  },
  checkJobs: async () => jobsHealth(await payloadClient(), { mailQueue: MAIL_QUEUE, mailEnabled: emailEnabled() }),
  probeBroker: () => brokerClient().probeVersion(),
  mapConfigured: Boolean(env().PUBLIC_MAP_TOKEN),
  version: APP_VERSION,
})

/**
 * Public by design (load balancers and uptime checks call it); it reveals no hosts or errors in
 * detail, and the app's and the broker's versions (what an attacker would match against advisories)
 * only to signed-in members; the jobs queues (mail first) as counts and ages. 503 while the server is starting (a load balancer sends it no citizen
 * before its pages are warm) or when the database is down.
 */
export const GET = withErrorHandling(async (request: Request) => {
  const checked = await checkHealth()
  const ready = isReady()
  const report = ready ? checked : { ...checked, status: 'starting' as const }
  const user = await signedInUser(request.headers)
  const member = userIsMember(user)
  // Which layers get changes pushed and which poll (docs/live-updates.md); counts only, and why to members.
  const live = await liveHealth({ withReasons: member }).catch(() => undefined)
  return Response.json({ ...(member ? report : withoutVersions(report)), ...(live && { live }) }, {
    status: ready && report.database ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  })
})
