'use client'
import { Button, useDocumentInfo, useField, useForm, useTranslation } from '@payloadcms/ui'
import { useEffect, useState } from 'react'

import { type AdminMessage, adminText } from '@/i18n/adminText'
import type { AiDraft } from '@/payload-types'

import type { EditorAiTask } from '../fields'
import { adminDraftUrl, approvedDraftsFor, changeDraftStatus, generateDraft, type DraftTargetRef } from './aiDraftsApi'

type Props = { task: EditorAiTask; field: string; insertsApproved: boolean }
type Notice = { text: string; draftId?: number | string }

/** Each task's button. */
const BUTTON: Record<EditorAiTask, AdminMessage> = {
  'post-draft': 'aiDraftContent',
  'search-keywords': 'aiSuggestKeywords',
  'layer-description': 'aiDraftDescription',
  'colour-suggestion': 'aiSuggestColour',
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

/** The plain text of a Lexical editor state (what search keywords are drawn from). */
function lexicalText(node: unknown): string {
  if (!node || typeof node !== 'object') return ''
  const { text: own, children, root } = node as { text?: unknown; children?: unknown; root?: unknown }
  if (typeof own === 'string') return own
  if (root) return lexicalText(root)
  return Array.isArray(children) ? children.map(lexicalText).filter(Boolean).join(' ') : ''
}

/** The task input from the document being edited; the server validates it. */
function inputFrom(task: EditorAiTask, data: Record<string, unknown>, notes: string): Record<string, unknown> {
  switch (task) {
    case 'post-draft':
      return { title: text(data.title), ...(notes.trim() ? { notes: notes.trim() } : {}) }
    case 'search-keywords':
      return { text: [text(data.title), lexicalText(data.content)].filter(Boolean).join('\n\n') }
    case 'layer-description':
    case 'colour-suggestion': {
      const source = (data.source ?? {}) as { tenant?: unknown; contextUrl?: unknown }
      return {
        name: text(data.name),
        entityType: text(data.entityType),
        attributes: Array.isArray(data.attributes) ? data.attributes : [],
        source: { tenant: text(source.tenant) || undefined, contextUrl: text(source.contextUrl) || undefined },
      }
    }
  }
}

/** What an approved draft puts into the form field: the first colour of a colour suggestion, else the text. */
function fieldValueOf(draft: AiDraft): string {
  if (draft.task !== 'colour-suggestion') return draft.draft
  const colours = JSON.parse(draft.draft) as string[]
  return colours[0]
}

/**
 * Approved drafts for a target without drafts of its own (map layers): inserting one fills the
 * unsaved form field and marks the draft applied; the editor checks it and saves by hand.
 */
function ApprovedDrafts({ target }: { target: DraftTargetRef }) {
  const { t } = useTranslation()
  const { setValue } = useField<string>({ path: target.field })
  const [approved, setApproved] = useState<AiDraft[]>([])
  const [notice, setNotice] = useState<string | null>(null)
  // Bumped to list the approved drafts again after one was inserted.
  const [listVersion, setListVersion] = useState(0)
  const { collection, docId, field } = target

  useEffect(() => {
    let current = true
    approvedDraftsFor({ collection, docId, field }).then(
      (drafts) => current && setApproved(drafts),
      () => current && setApproved([]),
    )
    return () => {
      current = false
    }
  }, [collection, docId, field, listVersion])

  const insert = async (draft: AiDraft) => {
    setNotice(null)
    try {
      setValue(fieldValueOf(draft))
      await changeDraftStatus(draft.id, 'applied')
      setNotice(adminText(t, 'aiDraftInserted'))
      setListVersion((version) => version + 1)
    } catch (error) {
      setNotice((error as Error).message)
    }
  }

  return (
    <>
      {approved.length > 0 && (
        <ul aria-label={adminText(t, 'aiApprovedDrafts')} style={{ listStyle: 'none', padding: 0 }}>
          {approved.map((draft) => (
            <li key={draft.id}>
              <q style={{ whiteSpace: 'pre-wrap' }}>{draft.draft}</q>{' '}
              <Button buttonStyle="pill" size="small" onClick={() => insert(draft)}>
                {adminText(t, 'aiInsertApprovedDraft')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p role="status">{notice}</p>
    </>
  )
}

/**
 * "Draft with AI": asks POST /api/ai/generate for a draft of this document's field and links to
 * it in the review queue, or shows why the content must be written by hand.
 */
export function DraftWithAiButton({ task, field, insertsApproved }: Props) {
  const { t } = useTranslation()
  const { id, collectionSlug } = useDocumentInfo()
  const { getData } = useForm()
  const [notes, setNotes] = useState('')
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)

  if (id === undefined || id === null || !collectionSlug) {
    return <p className="field-description">{adminText(t, 'aiSaveFirstToDraft', { field })}</p>
  }
  const target: DraftTargetRef = { collection: collectionSlug, docId: String(id), field }

  const generate = async () => {
    setBusy(true)
    setNotice(null)
    try {
      const outcome = await generateDraft(task, inputFrom(task, getData(), notes), target)
      setNotice(
        outcome.mode === 'ai'
          ? { text: adminText(t, 'aiDraftWaiting'), draftId: outcome.draft.id }
          : { text: outcome.message },
      )
    } catch (error) {
      setNotice({ text: (error as Error).message })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="field-type ai-draft-button" style={{ marginBottom: '1.5rem' }}>
      {task === 'post-draft' && (
        <label className="field-label" style={{ display: 'block' }}>
          {adminText(t, 'aiDraftNotes')}
          <textarea value={notes} onChange={(event) => setNotes(event.target.value)} rows={3} maxLength={5000} style={{ display: 'block', width: '100%' }} />
        </label>
      )}
      <Button buttonStyle="secondary" size="small" onClick={generate} disabled={busy}>
        {adminText(t, busy ? 'aiDrafting' : BUTTON[task])}
      </Button>
      <p role="status">
        {notice?.text}{' '}
        {notice?.draftId !== undefined && <a href={adminDraftUrl(notice.draftId)}>{adminText(t, 'aiReviewDraft')}</a>}
      </p>
      {insertsApproved && <ApprovedDrafts target={target} />}
    </div>
  )
}
