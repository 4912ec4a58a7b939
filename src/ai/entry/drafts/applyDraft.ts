import { convertMarkdownToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import type { PayloadRequest } from 'payload'

import { MAX_KEYWORDS, parseKeywords } from '@/ai/server'
import type { AiDraft } from '@/payload-types'

import { findField } from '@/ai/entry/drafts/fieldSettings'
import { documentId, findTarget, type DraftTarget } from '@/ai/shared/draftTargets'
import { updateSearchKeywords } from '@/ai/entry/drafts/searchKeywords'
import { applyTranslation } from '@/ai/entry/drafts/translation'
import { Refusal } from '@/hooks/refusal'

/** A new draft version of the target; its published version, if any, is left as it was. */
async function writeDraftVersion(rule: DraftTarget, id: string | number, text: string, req: PayloadRequest) {
  const field = findField(req.payload, rule.collection, rule.field)
  if (!field) throw new Refusal(`${rule.collection} has no field ${rule.field}`)
  // The model writes Markdown; rich-text fields get it converted with the field's own editor features.
  const value = field.type === 'richText' ? convertMarkdownToLexical({ editorConfig: editorConfigFactory.fromField({ field }), markdown: text }) : text
  await req.payload.update({
    collection: rule.collection,
    id,
    data: { [rule.field]: value },
    draft: true,
    req,
    overrideAccess: false,
  })
}

/**
 * Puts an approved draft where its target says (see DRAFT_TARGETS for what each mode writes).
 * Runs before the new status is saved (in the same request and transaction): a failed write leaves the draft approved.
 */
export async function applyDraft(draft: AiDraft, req: PayloadRequest): Promise<void> {
  const target = draft.target
  if (!target?.collection || !target.docId || !target.field) {
    throw new Refusal('This draft has no target document to apply it to: copy the approved text where it is needed.')
  }
  const rule = findTarget(draft.task, target)
  if (!rule) throw new Refusal(`A ${draft.task} draft cannot be applied to ${target.collection}.${target.field}.`)
  const id = documentId(target.docId)
  switch (rule.apply) {
    case 'draft-version':
      return writeDraftVersion(rule, id, draft.draft, req)
    case 'search-keywords':
      return updateSearchKeywords(req, rule.collection, id, parseKeywords(draft.draft, MAX_KEYWORDS))
    case 'question-answer':
      await req.payload.update({
        collection: 'questions',
        id,
        data: { answer: draft.draft, status: 'answered', answerDraft: draft.id },
        req,
        overrideAccess: false,
      })
      return
    case 'translation':
      return applyTranslation(req, rule.collection, id, target.locale, draft.draft)
    case 'editor-form':
      // The layer editor inserted the text into its form; the editor saves the layer by hand.
      return
  }
}
