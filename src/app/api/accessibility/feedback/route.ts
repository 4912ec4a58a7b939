import { createHash } from 'node:crypto'

import { feedbackSchema, MIN_FILL_MS } from '@/feedback/entry/accessibilityForm'
import { env } from '@/env'
import { readJsonBody } from '@/server/body'
import { HttpError, withErrorHandling } from '@/server/errors'
import { admitCaller, enforceKeyedRateLimit } from '@/server/rateLimit'
import { payloadClient } from '@/site/payload'
import { inboxOf } from '@/email/server/inbox'

export const dynamic = 'force-dynamic'

// Per inbox: victim+1@ and victim+2@ are one person's.
const addressKey = (email: string) => createHash('sha256').update(`a11y-feedback:${env().APP_SECRET}:${inboxOf(email)}`).digest('base64url')

/**
 * POST /api/accessibility/feedback {description, pageUrl?, email?, locale?, website, elapsedMs} →
 * 201: a citizen's accessibility problem, stored for staff (accessibility-reports) and, with email
 * on, announced to them. Abuse protection as for questions and alert sign-ups: a small body, a
 * strict schema, a limit per client and overall (and per answer address); plus a honeypot field
 * and a minimum fill time, both refused with 400.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const admitted = await admitCaller(request, { name: 'accessibility-feedback', perClient: 5, overall: 100, windowSeconds: 600 })
  const body = feedbackSchema(env().PUBLIC_SERVER_URL).parse(await readJsonBody(request, 8 * 1024))
  if (body.website) throw new HttpError(400, 'The report was refused: a field meant to stay empty was filled in.')
  if (body.elapsedMs < MIN_FILL_MS) throw new HttpError(400, 'The report was refused: it was sent too quickly after the page opened. Please try again.')
  if (body.email) await enforceKeyedRateLimit(addressKey(body.email), { name: 'accessibility-feedback-address', perKey: 5, windowSeconds: 3_600 })
  // Only a report that will be stored (and mailed to staff) spends the ceiling all clients share.
  await admitted.spendShared()
  const limitHeaders = admitted.headers
  const payload = await payloadClient()
  const report = await payload.create({
    collection: 'accessibility-reports',
    data: { description: body.description, pageUrl: body.pageUrl, email: body.email, locale: body.locale, status: 'new' },
    // Citizens have no create access: this rate-limited route is the one way in.
    overrideAccess: true,
  })
  return Response.json(
    { report: { id: report.id, status: report.status }, message: 'Thank you. Your report was received; staff will look into it.' },
    { status: 201, headers: { ...limitHeaders, 'Cache-Control': 'no-store' } },
  )
})
