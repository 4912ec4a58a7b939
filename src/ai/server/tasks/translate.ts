import { z } from 'zod'

import { LOCALE_NAMES, LOCALES } from '@/i18n/locales'

import { extractJson, TaskOutputError } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

/** Texts one translation carries at most, and each text's length. */
export const MAX_TRANSLATION_FIELDS = 200
export const MAX_TRANSLATION_TEXT = 20_000

/** English names of the languages, for the model (the citizens see LOCALE_NAMES). */
const LANGUAGE_NAMES = { es: 'Spanish (Spain)', pt: 'European Portuguese (Portugal)', en: 'English' } satisfies Record<(typeof LOCALES)[number], string>

/**
 * The texts of one page or post in its source locale, keyed by field path (`title`,
 * `meta.description`, `layout.<block id>.title`…); rich text comes as Markdown. The server fills
 * `texts` from the document (src/ai/translation.ts): callers give collection, id and locales.
 */
export const translateInputSchema = z
  .object({
    collection: z.enum(['pages', 'posts']),
    id: z.union([z.string().trim().min(1).max(64), z.number().int().positive()]).transform(String),
    sourceLocale: z.enum(LOCALES),
    targetLocale: z.enum(LOCALES),
    texts: z
      .record(z.string().min(1).max(300), z.string().max(MAX_TRANSLATION_TEXT))
      .refine((texts) => Object.keys(texts).length > 0, 'nothing to translate: the document has no text in the source locale')
      .refine((texts) => Object.keys(texts).length <= MAX_TRANSLATION_FIELDS, `at most ${MAX_TRANSLATION_FIELDS} texts`),
  })
  .refine((input) => input.sourceLocale !== input.targetLocale, { message: 'the target locale must differ from the source locale', path: ['targetLocale'] })

export type TranslateInput = z.output<typeof translateInputSchema>

/** The translated texts, with exactly the keys of the input's `texts`. */
export function parseTranslation(text: string, input: Pick<TranslateInput, 'texts'>): Record<string, string> {
  const json = extractJson(text, '{')
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new TaskOutputError('translate', ['the answer is not a JSON object'])
  const answer = json as Record<string, unknown>
  const problems: string[] = []
  const translated: Record<string, string> = {}
  for (const key of Object.keys(input.texts)) {
    const value = answer[key]
    if (typeof value !== 'string' || value.trim() === '') problems.push(`no translation of "${key}"`)
    else if (value.length > MAX_TRANSLATION_TEXT) problems.push(`the translation of "${key}" is too long`)
    else translated[key] = value.trim()
  }
  if (problems.length > 0) throw new TaskOutputError('translate', problems)
  return translated
}

export const translateTask = defineTask({
  name: 'translate',
  description: "Translate a page's or post's texts into another of the site's languages",
  inputSchema: translateInputSchema,
  defaults: { max_tokens: 4000, temperature: 0.2 },
  buildPrompt(input: TranslateInput) {
    const from = LANGUAGE_NAMES[input.sourceLocale]
    const to = LANGUAGE_NAMES[input.targetLocale]
    return assemblePrompt({
      instructions: [
        `Translate the texts of a city website below from ${from} into ${to} (${LOCALE_NAMES[input.targetLocale]}). ` +
          'Each value is one text of the page, keyed by where it goes. Translate every value faithfully and naturally for ' +
          'citizens, in a clear public-service tone; keep Markdown formatting, numbers, units, names of places and ' +
          'organisations, and URLs as they are; add nothing and leave nothing out. An editor will review the translation.',
      ],
      data: [['texts', input.texts, 2]],
      output: 'a JSON object with exactly the same keys, each mapped to its translated text, and nothing else.',
    })
  },
  parseOutput: (text: string, input: TranslateInput) => parseTranslation(text, input),
  formatOutput: (output: Record<string, string>) => JSON.stringify(output, null, 2),
})
