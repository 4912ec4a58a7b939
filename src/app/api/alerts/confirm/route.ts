import { z } from 'zod'

import { confirm, subscriptionLinkSchema } from '@/notices/entry/subscriptions'
import { readJsonBody } from '@/server/body'
import { HttpError, withErrorHandling } from '@/server/errors'
import { enforceRateLimit } from '@/server/rateLimit'
import { payloadClient } from '@/site/payload'

export const dynamic = 'force-dynamic'

/**
 * POST /api/alerts/confirm {s, t} (the confirmation page's button; a mail's GET never confirms,
 * so a mail scanner following links subscribes nobody) → 200, or 400 for a forged or expired link.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'alert-confirm', perClient: 20, overall: 1_000, windowSeconds: 600 })
  const link = z.strictObject(subscriptionLinkSchema).parse(await readJsonBody(request, 1024))
  const outcome = await confirm(await payloadClient(), link.s, link.t)
  if (outcome !== 'confirmed') throw new HttpError(400, 'This confirmation link is not valid or has expired: subscribe again')
  return Response.json({ status: 'confirmed' }, { headers: { ...limitHeaders, 'Cache-Control': 'no-store' } })
})
