import { z } from 'zod'

import { readProse } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const documentationInputSchema = z.object({
  topic: z.string().trim().min(1).max(300),
  audience: z.string().trim().min(1).max(100).default('editors'),
  notes: z.string().trim().max(5000).optional(),
})

export type DocumentationInput = z.output<typeof documentationInputSchema>

export const documentationTask = defineTask({
  name: 'documentation',
  description: 'Draft a help page for the dashboard',
  inputSchema: documentationInputSchema,
  defaults: { max_tokens: 1500, temperature: 0.4 },
  buildPrompt(input: DocumentationInput) {
    return assemblePrompt({
      instructions: [
        'Write a help page for a smart-city dashboard (a CMS with pages, posts, map layers of live city sensor ' +
          'data, and AI drafts that staff review before anything is published). Cover the topic below for the ' +
          'audience below: what it is, when to use it, and step-by-step how. Where you are not sure how this ' +
          'dashboard does something, say so instead of guessing.',
      ],
      data: [
        ['topic', input.topic],
        ['audience', input.audience],
        ['notes', input.notes || undefined],
      ],
      output: 'Markdown with a level-2 heading per section and numbered steps where useful; no preamble.',
    })
  },
  parseOutput: (text: string) => readProse('documentation', text, 30_000),
  formatOutput: (output: string) => output,
})
