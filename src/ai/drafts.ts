import type { Payload } from 'payload'

import { saveAiDraft, type DraftTargetInput } from '@/collections/AiDrafts/saveDraft'
import type { AiDraft } from '@/payload-types'

import { spendDailyAiBudget } from './budget'
import { AI_DISABLED_MESSAGE, runAiTask, type AiTaskName } from './index'
import { aiSettingsFor } from './settings'

/** What came of asking for a draft; only `drafted` wrote anything (a draft pending review). */
export type PendingDraftOutcome =
  | { outcome: 'drafted'; draft: AiDraft; model: string }
  | { outcome: 'ai-off'; message: string }
  | { outcome: 'over-budget'; message: string; retryAfterSeconds: number }
  | { outcome: 'manual'; message: string }

type DraftRequest = {
  task: AiTaskName
  /** The task's input, or how to build it once the task may run (a citizen answer's city data is costly). */
  input: Record<string, unknown> | (() => Promise<Record<string, unknown>>)
  target?: DraftTargetInput
  signal?: AbortSignal
}

/**
 * The one way AI text enters the CMS: the site's settings for the task, the daily budget, the
 * task run through the gateway's model chain, and the result saved as a draft pending review (a
 * human approves and applies it). Called by POST /api/ai/generate and the citizen-answer job.
 */
export async function generatePendingDraft(payload: Payload, { task, input, target, signal }: DraftRequest): Promise<PendingDraftOutcome> {
  const settings = await aiSettingsFor(payload, task)
  if (!settings.enabled) {
    // Input given is still checked (runAiTask throws TaskInputError): bad input is refused the same whether AI is on or off.
    if (typeof input !== 'function') await runAiTask(settings, task, input)
    return { outcome: 'ai-off', message: AI_DISABLED_MESSAGE }
  }
  const budget = await spendDailyAiBudget(payload)
  if (!budget.allowed) return { outcome: 'over-budget', message: budget.message, retryAfterSeconds: budget.retryAfterSeconds }
  const resolvedInput = typeof input === 'function' ? await input() : input
  const result = await runAiTask(settings, task, resolvedInput, { signal })
  if (result.mode === 'manual') return { outcome: 'manual', message: result.message }
  const draft = await saveAiDraft(payload, result, resolvedInput, target)
  return { outcome: 'drafted', draft, model: result.model }
}
