import { z } from 'zod'

import { subscriptionLinkSchema, unsubscribe } from '@/notices/entry/subscriptions'
import { readBodyBytes } from '@/server/body'
import { withErrorHandling } from '@/server/errors'
import { enforceRateLimit } from '@/server/rateLimit'
import { payloadClient } from '@/site/payload'

export const dynamic = 'force-dynamic'

/**
 * POST /api/alerts/unsubscribe?s&t: RFC 8058 one-click unsubscribe (mail clients POST
 * `List-Unsubscribe=One-Click` to the List-Unsubscribe address) and the unsubscribe page's button.
 * The subscription and everything kept for it are erased. The same 200 for a link already used.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'alert-unsubscribe', perClient: 30, overall: 2_000, windowSeconds: 600 })
  const url = new URL(request.url)
  const link = z.object(subscriptionLinkSchema).parse({ s: url.searchParams.get('s') ?? '', t: url.searchParams.get('t') ?? '' })
  // The body says nothing we need (List-Unsubscribe=One-Click), but is read within a small cap.
  await readBodyBytes(request, 1024)
  await unsubscribe(await payloadClient(), link.s, link.t)
  return Response.json({ status: 'unsubscribed' }, { headers: { ...limitHeaders, 'Cache-Control': 'no-store' } })
})
