import { z } from 'zod'

import { VERIFICATION_LINK_REFUSED, verifyAccount } from '@/accounts/entry/verification'
import { readJsonBody } from '@/server/body'
import { HttpError, withErrorHandling } from '@/server/errors'
import { enforceRateLimit } from '@/server/rateLimit'
import { payloadClient } from '@/site/payload'

export const dynamic = 'force-dynamic'

const verifyLinkSchema = z.strictObject({ t: z.string().min(1).max(128) })

/**
 * POST /api/account/verify {t} (the verification page's button; a mail's GET never verifies) →
 * 200, or 403 for a link that is unknown, used or expired (one answer: it tells no account apart).
 */
export const POST = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'account-verify', perClient: 20, overall: 1_000, windowSeconds: 600 })
  const { t } = verifyLinkSchema.parse(await readJsonBody(request, 1024))
  if (!(await verifyAccount(await payloadClient(), t))) throw new HttpError(403, VERIFICATION_LINK_REFUSED)
  return Response.json({ status: 'verified' }, { headers: { ...limitHeaders, 'Cache-Control': 'no-store' } })
})
