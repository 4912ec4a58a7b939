import type { Payload } from 'payload'

import { fieldAiSettings } from './fieldSettings'
import { saveAiDraft, type DraftTargetInput } from './saveDraft'
import { findTarget } from '../../shared/draftTargets'
import type { AiDraft, User } from '@/payload-types'
import { HttpError } from '@/server/errors'

import { spendDailyAiBudget } from '@/ai/entry/budget'
import { AI_DISABLED_MESSAGE, runAiTask, type AiTaskName } from '@/ai/server'
import { aiSettingsFor } from '@/ai/entry/settings'

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

/**
 * Checks the target (allowed for the task, AI allowed on the field, readable by the caller)
 * and returns the task input; a post draft gets its field's own prompt, never the caller's.
 */
export async function draftInputFor(payload: Payload, user: User, task: AiTaskName, input: Record<string, unknown>, target?: DraftTargetInput) {
  const taskInput = { ...input }
  if (task === 'post-draft') delete taskInput.customPrompt
  if (!target) return taskInput
  if (!findTarget(task, target)) throw new HttpError(400, `${task} drafts cannot go into ${target.collection}.${target.field}`)
  const fieldSettings = fieldAiSettings(payload, target.collection, target.field)
  if (!fieldSettings.enabled) throw new HttpError(403, `AI drafting is turned off for ${target.collection}.${target.field}`)
  const { totalDocs } = await payload.count({ collection: target.collection, where: { id: { equals: target.docId } }, overrideAccess: false, user })
  if (totalDocs === 0) throw new HttpError(404, `No ${target.collection} document ${target.docId}`)
  if (task === 'post-draft' && fieldSettings.generatePrompt) taskInput.customPrompt = fieldSettings.generatePrompt
  return taskInput
}
