'use client'
// The admin components' calls: the generate route and the ai-drafts REST API (same origin, session cookie).
import type { AiDraft } from '@/payload-types'

import type { AiDraftStatus } from '@/ai/shared/draftStatus'

export type DraftTargetRef = { collection: string; docId: string; field: string }
export type GenerateOutcome = { mode: 'ai'; draft: AiDraft } | { mode: 'manual'; message: string }

/** `{error}` from our routes, `{errors: [{message}]}` from Payload's REST API. */
async function readAnswer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; errors?: Array<{ message?: string }> }
  if (!response.ok) throw new Error(body.error ?? body.errors?.[0]?.message ?? `${response.status} ${response.statusText}`)
  return body
}

export async function generateDraft(task: string, input: Record<string, unknown>, target: DraftTargetRef): Promise<GenerateOutcome> {
  const response = await fetch('/api/ai/generate', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task, input, target: { collection: target.collection, id: target.docId, field: target.field } }),
  })
  return readAnswer<GenerateOutcome>(response)
}

/** Changes the status (the server's workflow hook decides whether it may); `draft` saves edited text with it. */
export async function changeDraftStatus(id: string | number, status: AiDraftStatus, draft?: string): Promise<AiDraft> {
  const response = await fetch(`/api/ai-drafts/${id}?depth=0`, {
    method: 'PATCH',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(draft === undefined ? { status } : { status, draft }),
  })
  return (await readAnswer<{ doc: AiDraft }>(response)).doc
}

export async function approvedDraftsFor(target: DraftTargetRef): Promise<AiDraft[]> {
  const query = new URLSearchParams({
    'where[status][equals]': 'approved',
    'where[target.collection][equals]': target.collection,
    'where[target.docId][equals]': target.docId,
    'where[target.field][equals]': target.field,
    sort: '-approvedAt',
    limit: '5',
    depth: '0',
  })
  const response = await fetch(`/api/ai-drafts?${query}`, { credentials: 'include' })
  return (await readAnswer<{ docs: AiDraft[] }>(response)).docs
}

export const adminDraftUrl = (id: string | number) => `/admin/collections/ai-drafts/${id}`
