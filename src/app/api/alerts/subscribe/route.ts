import { z } from 'zod'

import { ALERT_LEVELS } from '@/alerts'
import { quietHoursSchema } from '@/alerts/notices'
import { addressKey, requestSubscription } from '@/notices/entry/subscriptions'
import { emailEnabled } from '@/email/entry'
import { citySchema } from '@/layers/entry/tenant'
import { subscriptionTarget } from '@/layers/entry/alertNotices'
import { readJsonBody } from '@/server/body'
import { HttpError, withErrorHandling } from '@/server/errors'
import { admitCaller, enforceKeyedRateLimit } from '@/server/rateLimit'
import { payloadClient } from '@/site/payload'

export const dynamic = 'force-dynamic'

const subscribeSchema = z.strictObject({
  // z.email refuses line breaks and every other character that could start a header of its own.
  email: z.email('must be an email address').max(254, 'at most 254 characters'),
  layer: z.union([z.string().max(24), z.number().int().nonnegative()]).transform(String),
  city: citySchema.optional(),
  minimumLevel: z.enum(ALERT_LEVELS),
  quietHours: quietHoursSchema.optional(),
})

/** The one answer to every accepted request, whether the address is new, pending or subscribed. */
export const SUBSCRIBE_ANSWER = 'Thank you. If this address can receive our mail, a message with a link to confirm is on its way. Nothing else is sent until you confirm.'

/**
 * POST /api/alerts/subscribe {email, layer, city?, minimumLevel, quietHours?} → 202, the same
 * answer whatever the address's state (no enumeration). Double opt-in: only the confirmation mail
 * goes out before the link in it is used. Limited per client and per address.
 */
export const POST = withErrorHandling(async (request: Request) => {
  if (!emailEnabled()) throw new HttpError(503, 'Alert notices by email are not offered: this site sends no email')
  const admitted = await admitCaller(request, { name: 'alert-subscribe', perClient: 5, overall: 500, windowSeconds: 600 })
  const body = subscribeSchema.parse(await readJsonBody(request, 4 * 1024))
  // Per address too: rotating clients cannot fill one inbox with confirmations.
  await enforceKeyedRateLimit(addressKey(body.email), { name: 'alert-subscribe-address', perKey: 3, windowSeconds: 3_600 })
  const target = await subscriptionTarget(body.layer, body.city)
  // Only a request that will mail spends the ceiling all clients share.
  await admitted.spendShared()
  const limitHeaders = admitted.headers
  await requestSubscription(await payloadClient(), { email: body.email, minimumLevel: body.minimumLevel, quietHours: body.quietHours, ...target })
  return Response.json({ message: SUBSCRIBE_ANSWER }, { status: 202, headers: { ...limitHeaders, 'Cache-Control': 'no-store' } })
})
