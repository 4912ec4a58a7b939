import { env } from '@/env'
import { userIsMember } from '@/access'
import { emailEnabled, MAIL_QUEUE } from '@/email'
import { createHealthCheck, withoutVersions } from '@/health/check'
import { jobsHealth } from '@/health/jobs'
import { liveHealth } from '@/layers/entry/live'
import { brokerClient } from '@/server/services'
import { withErrorHandling } from '@/server/errors'
import { isReady } from '@/server/warmUp'
import { payloadClient } from '@/site/payload'
import { APP_VERSION } from '@/version'

export const dynamic = 'force-dynamic'

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
  const { user } = await (await payloadClient()).auth({ headers: request.headers })
  const member = userIsMember(user)
  // Which layers get changes pushed and which poll (docs/live-updates.md); counts only, and why to members.
  const live = await liveHealth({ withReasons: member }).catch(() => undefined)
  return Response.json({ ...(member ? report : withoutVersions(report)), ...(live && { live }) }, {
    status: ready && report.database ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  })
})
