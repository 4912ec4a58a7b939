import { z } from 'zod'

import { readProse } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const postDraftInputSchema = z.object({
  title: z.string().trim().min(1).max(200),
  outline: z.string().trim().max(5000).optional(),
  notes: z.string().trim().max(5000).optional(),
  /** The field's own instructions (`custom.ai.prompts.generate` of the rich-text field). */
  customPrompt: z.string().trim().max(2000).optional(),
})

export type PostDraftInput = z.output<typeof postDraftInputSchema>

const DEFAULT_INSTRUCTIONS =
  'Write a draft news post for a city dashboard website. Use the title and the optional outline and notes ' +
  'below; keep to the facts they give and do not invent figures, names, dates or quotes. Write 3 to 6 short ' +
  'paragraphs in a clear, neutral, public-service tone. An editor will review the draft before publication.'

/** Reads `ai.prompts.generate` from a field's `custom` object (no Payload types needed). */
export function fieldCustomPrompt(custom: unknown): string | undefined {
  const generate = (custom as { ai?: { prompts?: { generate?: unknown } } } | undefined)?.ai?.prompts?.generate
  return typeof generate === 'string' && generate.trim() !== '' ? generate.trim() : undefined
}

export const postDraftTask = defineTask({
  name: 'post-draft',
  description: 'Draft the body of a post from its title and notes',
  inputSchema: postDraftInputSchema,
  defaults: { max_tokens: 1200, temperature: 0.7 },
  buildPrompt(input: PostDraftInput) {
    // The field's prompt is site configuration (written by developers), so it may instruct;
    // placeholders such as {{title}} point at the data blocks instead of splicing text in.
    const custom = input.customPrompt?.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, '(the $1 given below)')
    return assemblePrompt({
      instructions: custom ? [custom, 'Keep to the facts in the data below; do not invent figures or quotes.'] : [DEFAULT_INSTRUCTIONS],
      data: [
        ['title', input.title],
        ['outline', input.outline || undefined],
        ['notes', input.notes || undefined],
      ],
      output: 'the body text only, in Markdown paragraphs, without the title, without any preamble or closing remarks.',
    })
  },
  parseOutput: (text: string) => readProse('post-draft', text, 20_000),
  formatOutput: (output: string) => output,
})
