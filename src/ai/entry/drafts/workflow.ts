import type { CollectionBeforeChangeHook } from 'payload'
import type { z } from 'zod'

import { userIsStaff } from '@/access'
import { aiTasks, TaskOutputError, type AiTask } from '@/ai/server'
import type { AiDraft } from '@/payload-types'

import { NEXT_STATUSES } from '@/ai/shared/draftStatus'
import { applyDraft } from './applyDraft'
import { Refusal } from '@/hooks/refusal'

// Written when the draft is created and never changed by whoever saves it afterwards.
const FIXED_FIELDS = ['task', 'model', 'failedModels', 'prompt', 'target', 'input', 'requiresApproval'] as const
// Set by this hook alone.
const REVIEW_FIELDS = ['reviewer', 'approvedAt'] as const

const refuse = (message: string, status = 400) => new Refusal(message, status)

function checkNewDraft(data: Partial<AiDraft>): Partial<AiDraft> {
  if (data.status !== 'pending_review') {
    throw refuse(`A new AI draft must start as pending_review, not ${data.status}: a person approves it afterwards.`)
  }
  if (data.requiresApproval !== true) throw refuse('A new AI draft must have requiresApproval: true.')
  if (data.reviewer != null || data.approvedAt != null) {
    throw refuse('A new AI draft has no reviewer and no approval date: they are set when a person approves it.')
  }
  return data
}

/** Approval re-checks the (possibly edited) text as the task checks the model's answer. */
function checkDraftOutput(task: AiDraft['task'], draft: string, input: unknown): void {
  const definition = aiTasks[task] as unknown as AiTask<z.ZodType, unknown>
  const parsedInput = definition.inputSchema.safeParse(input)
  if (!parsedInput.success) throw refuse('This draft cannot be approved: the input it was generated from is no longer valid.')
  try {
    definition.parseOutput(draft, parsedInput.data)
  } catch (error) {
    if (error instanceof TaskOutputError) throw refuse(`This draft cannot be approved as it stands: ${error.message}. Edit it first.`)
    throw error
  }
}

/**
 * The AI draft workflow, enforced for every caller (REST, GraphQL, admin, Local API):
 * created pending_review → approved | rejected (by staff, who become the reviewer) → applied
 * (approved only; writes the text into the target as an unpublished draft). The text may be
 * edited only while pending review.
 */
export const enforceDraftWorkflow: CollectionBeforeChangeHook<AiDraft> = async ({ data, operation, originalDoc, req }) => {
  if (operation === 'create') return checkNewDraft(data)
  if (!originalDoc) return data

  // `data` is the whole document as submitted: put back what the caller may not change.
  Object.assign(data, Object.fromEntries([...FIXED_FIELDS, ...REVIEW_FIELDS].map((name) => [name, originalDoc[name]])))
  const from = originalDoc.status
  const to = data.status ?? from
  if (data.draft !== originalDoc.draft && from !== 'pending_review') {
    throw refuse(`The text of a draft that is ${from} cannot be changed: only drafts pending review can be edited.`)
  }
  if (to === from) return data

  const allowed = NEXT_STATUSES[from]
  if (!allowed.includes(to)) {
    const options = allowed.length > 0 ? `only to ${allowed.join(' or ')}` : 'nowhere: it is final'
    throw refuse(`An AI draft cannot go from ${from} to ${to}; from ${from} it can go ${options}.`)
  }
  // A person decides, even for server code that bypasses access control.
  if (!req.user || !userIsStaff(req.user)) throw refuse('Only a signed-in editor or admin can review AI drafts.', 403)

  const current: AiDraft = { ...originalDoc, ...data, status: from }
  if (to === 'approved') {
    checkDraftOutput(current.task, current.draft, current.input)
    return { ...data, reviewer: req.user.id, approvedAt: new Date().toISOString() }
  }
  if (to === 'rejected') return { ...data, reviewer: req.user.id }
  await applyDraft(current, req)
  return data
}
