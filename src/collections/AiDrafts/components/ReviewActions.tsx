'use client'
import { Button, useDocumentInfo, useFormFields, useTranslation } from '@payloadcms/ui'
import { useState } from 'react'

import type { AiTaskName } from '@/ai/shared/taskNames'
import { adminText, adminTextAround } from '@/i18n/adminText'

import type { AiDraftStatus } from '@/ai/shared/draftStatus'
import { findTarget, type DraftTarget } from '@/ai/shared/draftTargets'
import { changeDraftStatus } from './aiDraftsApi'

const useFormValue = <T,>(path: string) => useFormFields(([fields]) => fields[path]?.value as T | undefined)

type TargetRef = { collection?: string; docId?: string; field?: string }

/** What an approved draft's editor is told: where it goes, and how (the review queue's Apply, or by hand in the target's editor). */
function ApprovedNote({ rule, target }: { rule: DraftTarget | undefined; target: TargetRef }) {
  const { t } = useTranslation()
  const targetUrl = target.collection && target.docId ? `/admin/collections/${target.collection}/${target.docId}` : undefined
  if (!rule) return <p>{adminText(t, 'aiApprovedNoTarget')}</p>
  if (rule.apply === 'editor-form') {
    const [before, after] = adminTextAround(t, 'aiApprovedInsert', 'link')
    const link = adminText(t, 'aiOpenTarget', { target: target.collection?.replace('-', ' ') ?? '' })
    return (
      <p>
        {before}
        <a href={targetUrl}>{link}</a>
        {after}
      </p>
    )
  }
  const [before, after] = adminTextAround(t, rule.apply === 'draft-version' ? 'aiApprovedApplyDraft' : 'aiApprovedApply', 'link', { field: target.field ?? '' })
  return (
    <p>
      {before}
      <a href={targetUrl}>{`${target.collection} ${target.docId}`}</a>
      {after}
    </p>
  )
}

/**
 * The review queue's buttons on an AI draft: approve (with any edits made to the text) or reject
 * while it is pending, apply once approved. The server's workflow hook has the last word; its
 * refusals are shown here as they come.
 */
export function ReviewActions() {
  const { t } = useTranslation()
  const { id } = useDocumentInfo()
  const status = useFormValue<AiDraftStatus>('status')
  const task = useFormValue<AiTaskName>('task')
  const text = useFormValue<string>('draft')
  const target = {
    collection: useFormValue<string>('target.collection'),
    docId: useFormValue<string>('target.docId'),
    field: useFormValue<string>('target.field'),
  }
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  if (id === undefined || id === null || !status || !task) return null
  const rule = findTarget(task, target)

  const change = async (next: AiDraftStatus) => {
    setBusy(true)
    setProblem(null)
    try {
      await changeDraftStatus(id, next, next === 'approved' ? text : undefined)
      // The form holds the old status and reviewer: load the saved draft afresh.
      window.location.reload()
    } catch (error) {
      setProblem((error as Error).message)
      setBusy(false)
    }
  }

  return (
    <section aria-label={adminText(t, 'aiReview')} style={{ marginBottom: '1.5rem' }}>
      {status === 'pending_review' && (
        <>
          <p>{adminText(t, 'aiReviewHint')}</p>
          <Button buttonStyle="primary" size="small" onClick={() => change('approved')} disabled={busy}>
            {adminText(t, 'aiApprove')}
          </Button>{' '}
          <Button buttonStyle="secondary" size="small" onClick={() => change('rejected')} disabled={busy}>
            {adminText(t, 'aiReject')}
          </Button>
        </>
      )}
      {status === 'approved' && <ApprovedNote rule={rule} target={target} />}
      {status === 'approved' && rule && rule.apply !== 'editor-form' && (
        <Button buttonStyle="primary" size="small" onClick={() => change('applied')} disabled={busy}>
          {adminText(t, 'aiApply')}
        </Button>
      )}
      {status === 'rejected' && <p>{adminText(t, 'aiDraftRejected')}</p>}
      {status === 'applied' && <p>{adminText(t, 'aiDraftApplied')}</p>}
      {problem && <p role="alert">{problem}</p>}
    </section>
  )
}
