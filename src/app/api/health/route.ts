import { env } from '@/env'
import { createHealthCheck } from '@/health/check'
import { brokerClient } from '@/services'
import { withErrorHandling } from '@/http/errors'
import { payloadClient } from '@/utilities/queries'
import { APP_VERSION } from '@/version'

export const dynamic = 'force-dynamic'

const checkHealth = createHealthCheck({
  checkDatabase: async () => {
    const payload = await payloadClient()
    await payload.count({ collection: 'users', overrideAccess: true })
  },
  probeBroker: () => brokerClient().probeVersion(),
  mapConfigured: Boolean(env().PUBLIC_MAP_TOKEN),
  version: APP_VERSION,
})

/** Public by design (load balancers and uptime checks call it); it reveals no hosts or errors in detail. */
export const GET = withErrorHandling(async () => {
  const report = await checkHealth()
  return Response.json(report, {
    status: report.database ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  })
})
