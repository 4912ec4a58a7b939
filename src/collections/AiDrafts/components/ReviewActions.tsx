'use client'
import { Button, useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useState } from 'react'

import type { AiTaskName } from '@/ai/shared/taskNames'

import type { AiDraftStatus } from '@/ai/shared/draftStatus'
import { findTarget } from '@/ai/shared/draftTargets'
import { changeDraftStatus } from './aiDraftsApi'

const useFormValue = <T,>(path: string) => useFormFields(([fields]) => fields[path]?.value as T | undefined)

/**
 * The review queue's buttons on an AI draft: approve (with any edits made to the text) or reject
 * while it is pending, apply once approved. The server's workflow hook has the last word; its
 * refusals are shown here as they come.
 */
export function ReviewActions() {
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
  const targetUrl = target.collection && target.docId ? `/admin/collections/${target.collection}/${target.docId}` : undefined

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
    <section aria-label="Review" style={{ marginBottom: '1.5rem' }}>
      {status === 'pending_review' && (
        <>
          <p>Read and, if needed, edit the text. Approving saves your edits with the approval.</p>
          <Button buttonStyle="primary" size="small" onClick={() => change('approved')} disabled={busy}>
            Approve
          </Button>{' '}
          <Button buttonStyle="secondary" size="small" onClick={() => change('rejected')} disabled={busy}>
            Reject
          </Button>
        </>
      )}
      {status === 'approved' && !rule && <p>Approved. This draft has no target: copy the text where it is needed.</p>}
      {status === 'approved' && rule?.apply === 'editor-form' && (
        <p>
          Approved. <a href={targetUrl}>Open the {target.collection?.replace('-', ' ')}</a> and insert it there, then save.
        </p>
      )}
      {status === 'approved' && rule && rule.apply !== 'editor-form' && (
        <>
          <p>
            Approved. Apply writes it into <a href={targetUrl}>{`${target.collection} ${target.docId}`}</a> ({target.field})
            {rule.apply === 'draft-version' ? ' as an unpublished draft: publish the document yourself.' : '.'}
          </p>
          <Button buttonStyle="primary" size="small" onClick={() => change('applied')} disabled={busy}>
            Apply
          </Button>
        </>
      )}
      {(status === 'rejected' || status === 'applied') && <p>This draft is {status}; nothing more can change.</p>}
      {problem && <p role="alert">{problem}</p>}
    </section>
  )
}
