import type { CollectionSlug, FlattenedField, Payload } from 'payload'

import { fieldCustomPrompt } from '@/ai/server'

/** A field of a collection by dotted path through named groups (`style.colour`); undefined if absent. */
export function findField(payload: Payload, collection: CollectionSlug, path: string): FlattenedField | undefined {
  let fields: FlattenedField[] | undefined = payload.collections[collection]?.config.flattenedFields
  let found: FlattenedField | undefined
  for (const name of path.split('.')) {
    found = fields?.find((field) => field.name === name)
    fields = found && 'flattenedFields' in found ? found.flattenedFields : undefined
  }
  return found
}

/**
 * The field's own AI settings (`custom.ai` on the field config, as the posts' content has):
 * a field that declares them is drafted only when `enabled` is true, with its `prompts.generate`.
 * Fields without them follow DRAFT_TARGETS alone.
 */
export function fieldAiSettings(payload: Payload, collection: CollectionSlug, path: string): { enabled: boolean; generatePrompt?: string } {
  const custom = findField(payload, collection, path)?.custom as { ai?: { enabled?: unknown } } | undefined
  if (!custom?.ai) return { enabled: true }
  return { enabled: custom.ai.enabled === true, generatePrompt: fieldCustomPrompt(custom) }
}
