import type { Payload } from 'payload'

import type { AiTaskRunResult } from '@/ai/server'
import type { Locale } from '@/i18n/locales'
import type { AiDraft } from '@/payload-types'

import type { TargetCollection } from '../../shared/draftTargets'

/** As stored in `target`: the document's id as text (ids are numbers or strings by database). */
export type DraftTargetInput = { collection: TargetCollection; docId: string; field: string; locale?: Locale }

/** Stores a generated text as a draft awaiting review: the only way AI output enters the CMS. */
export function saveAiDraft(
  payload: Payload,
  result: Extract<AiTaskRunResult, { mode: 'ai' }>,
  input: Record<string, unknown>,
  target?: DraftTargetInput,
): Promise<AiDraft> {
  return payload.create({
    collection: 'ai-drafts',
    data: {
      task: result.task,
      draft: result.content,
      status: 'pending_review',
      requiresApproval: true,
      model: result.model,
      failedModels: result.failedModels,
      prompt: result.prompt,
      target,
      input,
    },
    // Nobody creates drafts over REST; this server code is the one way in.
    overrideAccess: true,
  })
}
