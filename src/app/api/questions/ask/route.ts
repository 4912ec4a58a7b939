import type { Payload } from 'payload'
import { z } from 'zod'

import { runAiTask } from '@/ai'
import { saveAiDraft } from '@/collections/AiDrafts/saveDraft'
import { TENANT_NAME } from '@/fields/patterns'
import type { Question, SiteSetting } from '@/payload-types'
import { aiSettingsFor } from '@/utilities/ai'
import { summariseCityData } from '@/utilities/citySummary'
import { HttpError, withErrorHandling } from '@/utilities/httpErrors'
import { payloadClient } from '@/utilities/queries'
import { enforceRateLimit } from '@/utilities/rateLimits'
import { readJsonBody } from '@/utilities/requestBody'

export const dynamic = 'force-dynamic'

// A citizen waits for this request: a slow gateway only costs the draft, never the question.
const ANSWER_DRAFT_TIMEOUT_MS = 20_000

const askSchema = z.strictObject({
  question: z.string().trim().min(10, 'at least 10 characters').max(1000, 'at most 1000 characters'),
  city: z.string().regex(TENANT_NAME, 'city: letters, digits, - and _ only').optional(),
})

/** The city asked about: the one named (it must be a city of the site), else the site's first. */
async function cityOf(payload: Payload, tenant: string | undefined) {
  const settings = (await payload.findGlobal({ slug: 'site-settings', depth: 0 })) as SiteSetting
  const cities = settings.cities ?? []
  if (!tenant) return cities[0]
  const city = cities.find((candidate) => candidate.tenant === tenant)
  if (!city) throw new HttpError(400, `Unknown city "${tenant}"`)
  return city
}

/** Generates an answer draft for staff to review; any failure is logged and the question stands. */
async function draftAnswer(payload: Payload, question: Question, cityName: string | undefined) {
  try {
    const settings = await aiSettingsFor(payload, 'citizen-answer')
    if (!settings.enabled) return
    const input = { question: question.question, city: cityName, cityData: await summariseCityData(payload, question.city ?? undefined) }
    const result = await runAiTask(settings, 'citizen-answer', input, { signal: AbortSignal.timeout(ANSWER_DRAFT_TIMEOUT_MS) })
    if (result.mode === 'ai') await saveAiDraft(payload, result, input, { collection: 'questions', docId: String(question.id), field: 'answer' })
  } catch (error) {
    payload.logger.error({ err: error, msg: `No answer draft for question ${question.id}` })
  }
}

/**
 * POST /api/questions/ask {question, city?} → 201. Anyone may ask (rate-limited per client);
 * the answer appears on /questions only after a member of staff approves and applies it.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'questions', perClient: 5, overall: 200, windowSeconds: 600 })
  const body = askSchema.parse(await readJsonBody(request, 8 * 1024))
  const payload = await payloadClient()
  const city = await cityOf(payload, body.city)
  const question = await payload.create({
    collection: 'questions',
    data: { question: body.question, city: city?.tenant, status: 'received' },
    // Citizens have no create access: this rate-limited route is the one way in.
    overrideAccess: true,
  })
  await draftAnswer(payload, question, city?.name)
  return Response.json(
    {
      question: { id: question.id, question: question.question, status: question.status },
      message: 'Thank you. A member of staff will check the answer before it appears on this page.',
    },
    { status: 201, headers: { ...limitHeaders, 'Cache-Control': 'no-store' } },
  )
})
