import { z } from 'zod'

import { userIsStaff } from '@/access'
import { TaskInputError, taskNames } from '@/ai/server'
import { draftInputFor, generatePendingDraft } from '@/ai/entry/drafts'
import type { DraftTargetInput } from '@/ai/entry/drafts/saveDraft'
import { TARGET_COLLECTIONS } from '@/ai/shared/draftTargets'
import { translationRequest } from '@/ai/entry/drafts/translation'
import { rateLimitHeaders } from '@/rate-limit'
import { rateLimiter } from '@/server/services'
import { HttpError, withErrorHandling } from '@/server/errors'
import { payloadClient, signedInUser } from '@/site/payload'
import { readJsonBody } from '@/server/body'

export const dynamic = 'force-dynamic'

const bodySchema = z.strictObject({
  task: z.enum(taskNames),
  input: z.record(z.string(), z.unknown()),
  target: z
    .strictObject({
      collection: z.enum(TARGET_COLLECTIONS),
      id: z.union([z.string().trim().min(1).max(64), z.number().int().positive()]).transform(String),
      field: z.string().trim().min(1).max(100),
    })
    .transform(({ id, ...target }): DraftTargetInput => ({ ...target, docId: id }))
    .optional(),
})

/** Per signed-in user: generation costs money and gateway quota, whatever address it comes from. */
const userLimiter = () => rateLimiter('ai-generate', { points: 20, durationSeconds: 60 })

/**
 * POST /api/ai/generate {task, input, target?} (editors and admins; `translate` takes
 * {collection, id, targetLocale, sourceLocale?} as input and needs no target) → 201 {mode: "ai", draft}
 * with the draft pending review, or 200 {mode: "manual", content: "", message} when AI is off or
 * the gateway failed; 429 {error} when the site's daily AI budget is spent. Never writes to the target: that takes an approval and an apply.
 */
export const POST = withErrorHandling(async (request: Request) => {
  const payload = await payloadClient()
  const user = await signedInUser(request.headers)
  if (!user) throw new HttpError(401, 'Sign in to use the AI helper')
  if (!userIsStaff(user)) throw new HttpError(403, 'Only editors and admins can use the AI helper')
  const limit = await userLimiter().consume(String(user.id))
  if (!limit.allowed) throw new HttpError(429, 'Too many AI requests; try again later', rateLimitHeaders(limit))

  const body = bodySchema.parse(await readJsonBody(request))
  const { task } = body
  // A translation names its document in its input ({collection, id, targetLocale}); its texts are read here.
  const { input: taskInput, target } =
    task === 'translate'
      ? await translationRequest(payload, user, body.input)
      : { input: await draftInputFor(payload, user, task, body.input, body.target), target: body.target }
  const result = await generatePendingDraft(payload, { task, input: taskInput, target, signal: request.signal }).catch((error: unknown) => {
    if (error instanceof TaskInputError) throw new HttpError(400, error.message)
    throw error
  })
  const headers = { 'Cache-Control': 'no-store', ...rateLimitHeaders(limit) }
  switch (result.outcome) {
    case 'over-budget':
      throw new HttpError(429, result.message, { 'Retry-After': String(result.retryAfterSeconds) })
    case 'drafted':
      return Response.json({ mode: 'ai', draft: result.draft }, { status: 201, headers })
    default:
      return Response.json({ mode: 'manual', content: '', message: result.message }, { headers })
  }
})
