import type { Payload } from 'payload'
import { z } from 'zod'

import { queueAnswerDraft } from '@/ai/entry/drafts/questionAnswer'
import { emailEnabled } from '@/email/entry'
import { replyAddressSchema } from '@/feedback/entry/replyAddress'
import { citiesNow, citySchema, knownCity } from '@/layers/entry/tenant'
import { cityOrDefault } from '@/site/cities'
import { withErrorHandling } from '@/server/errors'
import { payloadClient } from '@/site/payload'
import { admitCaller } from '@/server/rateLimit'
import { readJsonBody } from '@/server/body'
import { HttpError } from '@/server/errors'

export const dynamic = 'force-dynamic'

const askSchema = z.strictObject({
  question: z.string().trim().min(10, 'at least 10 characters').max(1000, 'at most 1000 characters'),
  city: citySchema.optional(),
  // Where to say that the answer is out; an empty field is no address.
  email: replyAddressSchema,
})

/** The city asked about: the one named (it must be a city of the site), else the site's first. */
async function cityOf(payload: Payload, tenant: string | undefined) {
  return tenant ? knownCity(tenant, payload) : cityOrDefault(await citiesNow(payload), undefined)
}

/**
 * POST /api/questions/ask {question, city?, email?} → 201 at once ("received"); the answer draft
 * is made in the background. Anyone may ask (rate-limited per client); the answer appears on
 * /questions only after a member of staff approves and applies it. An address, only accepted
 * while email is on, is mailed once when the answer is published and then erased
 * (src/feedback/entry/questionAnswered.ts).
 */
export const POST = withErrorHandling(async (request: Request) => {
  const admitted = await admitCaller(request, { name: 'questions', perClient: 5, overall: 200, windowSeconds: 600 })
  const body = askSchema.parse(await readJsonBody(request, 8 * 1024))
  if (body.email && !emailEnabled()) throw new HttpError(400, 'This site sends no email: ask without an address and check this page for the answer.')
  // Only a question that will be stored spends the ceiling all clients share.
  await admitted.spendShared()
  const limitHeaders = admitted.headers
  const payload = await payloadClient()
  const city = await cityOf(payload, body.city)
  const question = await payload.create({
    collection: 'questions',
    data: { question: body.question, city: city?.tenant, status: 'received', notifyEmail: body.email },
    // Citizens have no create access: this rate-limited route is the one way in.
    overrideAccess: true,
  })
  await queueAnswerDraft(payload, question)
  return Response.json(
    {
      question: { id: question.id, question: question.question, status: question.status },
      message: body.email
        ? 'Thank you. A member of staff will check the answer before it appears on this page; we will mail you then.'
        : 'Thank you. A member of staff will check the answer before it appears on this page.',
    },
    { status: 201, headers: { ...limitHeaders, 'Cache-Control': 'no-store' } },
  )
})
