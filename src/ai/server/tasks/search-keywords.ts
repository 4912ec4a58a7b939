import { z } from 'zod'

import { extractJson, TaskOutputError } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const MAX_KEYWORDS = 20
export const MAX_KEYWORD_LENGTH = 40
export const MAX_KEYWORD_WORDS = 4

export const searchKeywordsInputSchema = z.object({
  text: z.string().trim().min(1).max(20_000),
  maxKeywords: z.number().int().min(1).max(MAX_KEYWORDS).default(10),
})

export type SearchKeywordsInput = z.output<typeof searchKeywordsInputSchema>

/** Lower-case, bullets/quotes/hashes off, spaces collapsed; undefined when unusable. */
function normaliseKeyword(raw: string): string | undefined {
  const keyword = raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')
    .replace(/^[\s"'`#]+|[\s"'`.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (keyword === '' || keyword.length > MAX_KEYWORD_LENGTH) return undefined
  if (keyword.split(' ').length > MAX_KEYWORD_WORDS) return undefined
  if (!/^[\p{L}\p{N}][\p{L}\p{N}\s'&.+/-]*$/u.test(keyword)) return undefined
  return keyword
}

/**
 * A JSON array of strings, or a comma/semicolon/line separated list (an optional "Keywords:"
 * label is dropped). Returns distinct lower-case keywords, at most `max`.
 */
export function parseKeywords(text: string, max: number = 10): string[] {
  const limit = Math.min(Math.max(1, Math.floor(max)), MAX_KEYWORDS)
  const json = extractJson(text, '[')
  const raw =
    Array.isArray(json) && json.every((item) => typeof item === 'string')
      ? (json as string[])
      : text.replace(/^\s*keywords?\s*:/i, '').split(/[,;\n]+/)
  const keywords = [...new Set(raw.map(normaliseKeyword).filter((keyword): keyword is string => keyword !== undefined))]
  if (keywords.length === 0) throw new TaskOutputError('search-keywords', ['no usable keyword in the answer'])
  return keywords.slice(0, limit)
}

export const searchKeywordsTask = defineTask({
  name: 'search-keywords',
  description: 'Extract search keywords from a text',
  inputSchema: searchKeywordsInputSchema,
  defaults: { max_tokens: 200, temperature: 0.2 },
  buildPrompt(input: SearchKeywordsInput) {
    return assemblePrompt({
      instructions: [
        `Extract up to ${input.maxKeywords} search keywords that a citizen might type to find the text below ` +
          'on a city website. Prefer specific nouns and short phrases (at most three words); no duplicates.',
      ],
      data: [['text', input.text]],
      output: 'a JSON array of lower-case strings, for example ["air quality", "parking"], and nothing else.',
    })
  },
  parseOutput: (text: string, input: SearchKeywordsInput) => parseKeywords(text, input.maxKeywords),
  formatOutput: (output: string[]) => output.join(', '),
})
