import type { UIField } from 'payload'

import type { AiTaskName } from '@/ai/shared/taskNames'

/** The tasks with a button in an editor (the others are reached through the API). */
export type EditorAiTask = Extract<AiTaskName, 'post-draft' | 'search-keywords' | 'layer-description' | 'colour-suggestion'>

/**
 * A "Draft with AI" button in a collection's editor, for one task and one target field. The
 * button calls POST /api/ai/generate and links to the draft it creates; it never fills the
 * field itself except with a draft a person has approved.
 */
export const draftWithAiField = ({ name, task, field }: { name: string; task: EditorAiTask; field: string }): UIField => ({
  name,
  type: 'ui',
  admin: {
    components: {
      Field: { path: '@/collections/AiDrafts/components/DraftWithAi#DraftWithAi', clientProps: { task, field } },
    },
  },
})

/**
 * "Translate with AI" in a page's or post's editor: drafts the document's texts (in the locale
 * being edited) in another locale of the site, as one draft for review; applying it writes that
 * locale's texts into a new unpublished draft version.
 */
export const translateWithAiField = ({ position }: { position?: 'sidebar' } = {}): UIField => ({
  name: 'translateWithAi',
  type: 'ui',
  admin: {
    ...(position ? { position } : {}),
    components: { Field: '@/collections/AiDrafts/components/TranslateWithAi#TranslateWithAi' },
  },
})
