import { convertLexicalToMarkdown, convertMarkdownToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import type { SerializedEditorState } from 'lexical'
import type { FlattenedField, Payload, PayloadRequest, RichTextField } from 'payload'

import { MAX_TRANSLATION_FIELDS, MAX_TRANSLATION_TEXT, type TranslateInput } from '@/ai/server'
import { DEFAULT_LOCALE, isLocale, type Locale } from '@/i18n/locales'
import { HttpError } from '@/server/errors'
import { Refusal } from '@/hooks/refusal'
import type { User } from '@/payload-types'

import { type DraftTargetInput } from './saveDraft'
import { documentId, TRANSLATION_FIELD } from '../../shared/draftTargets'

/** The collections the translate task works on. */
export type TranslatableCollection = 'pages' | 'posts'
const TRANSLATABLE: readonly string[] = ['pages', 'posts']

type Data = Record<string, unknown>
type Visit = (path: string, field: FlattenedField, container: Data, name: string) => void

const isText = (field: FlattenedField) => field.type === 'text' || field.type === 'textarea' || field.type === 'richText'

/**
 * Every localized text field of a document with a value, by path: names through groups and named
 * tabs, row ids through arrays and blocks (`layout.<block id>.title`), since the rows are shared
 * by every locale and the ids name the same row in each.
 */
function walkTexts(fields: readonly FlattenedField[], data: Data, prefix: string, visit: Visit): void {
  for (const field of fields) {
    if (!('name' in field)) continue
    const value = data[field.name]
    if (isText(field)) {
      if (field.localized && !('hasMany' in field && field.hasMany)) visit(`${prefix}${field.name}`, field, data, field.name)
      continue
    }
    if ((field.type === 'group' || field.type === 'tab') && 'flattenedFields' in field && value && typeof value === 'object') {
      walkTexts(field.flattenedFields, value as Data, `${prefix}${field.name}.`, visit)
    } else if (field.type === 'array' && Array.isArray(value)) {
      for (const row of value as Data[]) if (typeof row?.id === 'string') walkTexts(field.flattenedFields, row, `${prefix}${field.name}.${row.id}.`, visit)
    } else if (field.type === 'blocks' && Array.isArray(value)) {
      for (const row of value as Data[]) {
        const block = field.blocks.find((candidate) => candidate.slug === row?.blockType)
        if (block && typeof row.id === 'string') walkTexts(block.flattenedFields, row, `${prefix}${field.name}.${row.id}.`, visit)
      }
    }
  }
}

const fieldsOf = (payload: Payload, collection: TranslatableCollection) => payload.collections[collection].config.flattenedFields

const editorConfigOf = (field: FlattenedField) => editorConfigFactory.fromField({ field: field as RichTextField })

/** The latest version (draft or published) of a document in one locale, without falling back to another. */
function readInLocale(payload: Payload, collection: TranslatableCollection, id: string | number, locale: Locale, access: { user?: User; req?: PayloadRequest }) {
  return payload.findByID({
    collection,
    id,
    locale,
    fallbackLocale: false,
    draft: true,
    depth: 0,
    overrideAccess: false,
    ...access,
  }) as unknown as Promise<Data>
}

/** A document's texts in `locale` by path (rich text as Markdown), ready for the translate task. */
export async function localizedTexts(payload: Payload, collection: TranslatableCollection, id: string | number, locale: Locale, user: User) {
  const doc = await readInLocale(payload, collection, id, locale, { user })
  const texts: Record<string, string> = {}
  walkTexts(fieldsOf(payload, collection), doc, '', (path, field, container, name) => {
    const value = container[name]
    if (value === null || value === undefined) return
    const text = field.type === 'richText' ? convertLexicalToMarkdown({ data: value as SerializedEditorState, editorConfig: editorConfigOf(field) }) : String(value)
    if (text.trim() !== '' && text.length <= MAX_TRANSLATION_TEXT) texts[path] = text
  })
  return texts
}

/**
 * POST /api/ai/generate's translate request, `{collection, id, targetLocale, sourceLocale?}`:
 * checked (a page or post the caller can read, two different locales), the document's texts read
 * in the source locale (the default locale unless given), and the draft's target (the document's
 * texts in the target locale).
 */
export async function translationRequest(payload: Payload, user: User, input: Record<string, unknown>): Promise<{ input: TranslateInput; target: DraftTargetInput }> {
  const { collection, id, targetLocale } = input
  const sourceLocale = input.sourceLocale ?? DEFAULT_LOCALE
  if (typeof collection !== 'string' || !TRANSLATABLE.includes(collection)) throw new HttpError(400, 'translate: collection must be pages or posts')
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0 || String(id).length > 64) throw new HttpError(400, 'translate: id of the page or post is required')
  if (!isLocale(targetLocale) || !isLocale(sourceLocale)) throw new HttpError(400, 'translate: targetLocale and sourceLocale must be locales of the site')
  if (targetLocale === sourceLocale) throw new HttpError(400, 'translate: the target locale must differ from the source locale')
  const docId = String(id)
  let texts: Record<string, string>
  try {
    texts = await localizedTexts(payload, collection as TranslatableCollection, documentId(docId), sourceLocale, user)
  } catch (error) {
    if ((error as { status?: number }).status === 404 || (error as { status?: number }).status === 403) throw new HttpError(404, `No ${collection} document ${docId}`)
    throw error
  }
  if (Object.keys(texts).length > MAX_TRANSLATION_FIELDS) throw new HttpError(400, `translate: the document has more than ${MAX_TRANSLATION_FIELDS} texts`)
  return {
    input: { collection: collection as TranslatableCollection, id: docId, sourceLocale, targetLocale, texts },
    target: { collection: collection as TranslatableCollection, docId, field: TRANSLATION_FIELD, locale: targetLocale },
  }
}

/**
 * Writes an approved translation (JSON of texts by path) into the target locale as a new draft
 * version of the document: only that locale's texts change, the published version stays as it
 * was, and nothing is published.
 */
export async function applyTranslation(req: PayloadRequest, collection: string, id: string | number, locale: string | null | undefined, draft: string) {
  if (!TRANSLATABLE.includes(collection)) throw new Refusal(`Translations go into pages or posts, not ${collection}.`)
  if (!isLocale(locale)) throw new Refusal('This translation has no target locale.')
  let texts: Record<string, unknown>
  try {
    texts = JSON.parse(draft) as Record<string, unknown>
  } catch {
    throw new Refusal('This translation is not a JSON object of texts: it cannot be applied.')
  }
  const doc = await readInLocale(req.payload, collection as TranslatableCollection, id, locale, { req })
  const changed: Data = {}
  walkTexts(fieldsOf(req.payload, collection as TranslatableCollection), doc, '', (path, field, container, name) => {
    const text = texts[path]
    if (typeof text !== 'string' || text.trim() === '') return
    container[name] = field.type === 'richText' ? convertMarkdownToLexical({ editorConfig: editorConfigOf(field), markdown: text }) : text
    changed[path.split('.')[0]] = true
  })
  const data = Object.fromEntries(Object.keys(changed).map((name) => [name, doc[name]]))
  if (Object.keys(data).length === 0) throw new Refusal('Nothing in this translation matches the document any more: its texts or blocks have changed since.')
  await req.payload.update({ collection: collection as TranslatableCollection, id, locale, data, draft: true, req, overrideAccess: false })
}
