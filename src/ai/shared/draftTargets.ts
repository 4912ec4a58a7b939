// Shared by server code and the admin's client components: type imports only.
import type { CollectionSlug } from 'payload'

import type { AiTaskName } from '@/ai/server'

/**
 * Where an approved AI draft may go, per task, and what "apply" does there. Nothing here
 * publishes on its own:
 * - `draft-version`: a new draft version of a versioned document; the published version stays
 *   as it was until an editor publishes by hand.
 * - `search-keywords`: search metadata of the document's search-index record (never shown as
 *   content); also copied at every later sync (see searchKeywords.ts).
 * - `question-answer`: the answer of a citizen question. The staff member's apply, after their
 *   approval, is the publication step the design asks for.
 * - `translation`: the draft (a JSON object of texts keyed by field path) goes into the target
 *   locale of the page or post as a new draft version; the published version and the other
 *   locales' texts stay as they were.
 * - `editor-form`: nothing is written. Map layers have no drafts and their fields are public,
 *   so the layer editor inserts the approved text into its unsaved form and the editor saves by
 *   hand; apply only records that the draft was used.
 */
export type ApplyMode = 'draft-version' | 'search-keywords' | 'question-answer' | 'editor-form' | 'translation'

export type DraftTarget = { collection: TargetCollection; field: string; apply: ApplyMode }

export const TARGET_COLLECTIONS = ['posts', 'pages', 'map-layers', 'questions'] as const satisfies readonly CollectionSlug[]
export type TargetCollection = (typeof TARGET_COLLECTIONS)[number]

/** `keywords` of posts and pages names their search-index keywords, not a field of the document. */
export const SEARCH_KEYWORDS_FIELD = 'keywords'

/** The target field of a translation: not a field, the document's localized texts together. */
export const TRANSLATION_FIELD = 'translation'

export const DRAFT_TARGETS: Record<AiTaskName, readonly DraftTarget[]> = {
  'post-draft': [{ collection: 'posts', field: 'content', apply: 'draft-version' }],
  documentation: [{ collection: 'posts', field: 'content', apply: 'draft-version' }],
  'layer-description': [{ collection: 'map-layers', field: 'description', apply: 'editor-form' }],
  'colour-suggestion': [{ collection: 'map-layers', field: 'style.colour', apply: 'editor-form' }],
  // Sample entities are checked against the layer's schema and copied by hand to a broker.
  'sample-data': [],
  'search-keywords': [
    { collection: 'posts', field: SEARCH_KEYWORDS_FIELD, apply: 'search-keywords' },
    { collection: 'pages', field: SEARCH_KEYWORDS_FIELD, apply: 'search-keywords' },
  ],
  'citizen-answer': [{ collection: 'questions', field: 'answer', apply: 'question-answer' }],
  translate: [
    { collection: 'pages', field: TRANSLATION_FIELD, apply: 'translation' },
    { collection: 'posts', field: TRANSLATION_FIELD, apply: 'translation' },
  ],
}

export type TargetRef = { collection?: string | null; field?: string | null }

export const findTarget = (task: AiTaskName, target: TargetRef): DraftTarget | undefined =>
  DRAFT_TARGETS[task].find((rule) => rule.collection === target.collection && rule.field === target.field)

/** Payload ids are numbers on SQL databases and strings on MongoDB; targets store them as text. */
export const documentId = (id: string): string | number => (/^\d{1,15}$/.test(id) ? Number(id) : id)
