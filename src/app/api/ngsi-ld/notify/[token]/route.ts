import { notifyReply } from '@/layers/entry/live'
import { withErrorHandling } from '@/server/errors'

export const dynamic = 'force-dynamic'

/** POST /api/ngsi-ld/notify/{token}: a broker's notification for one live subscription (src/layers/entry/live.ts). */
export const POST = withErrorHandling(async (request: Request, context: { params: Promise<{ token: string }> }) =>
  notifyReply(request, (await context.params).token),
)
