import { z } from 'zod'

import { readProse } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const MAX_CITY_DATA_CHARS = 20_000

export const citizenAnswerInputSchema = z.object({
  question: z.string().trim().min(1).max(1000),
  /** A compact JSON summary of the city's current data (already reduced by the caller). */
  cityData: z.unknown().superRefine((value, ctx) => {
    let json: string | undefined
    try {
      json = JSON.stringify(value)
    } catch {
      json = undefined
    }
    if (json === undefined) ctx.addIssue({ code: 'custom', message: 'must be JSON-serialisable' })
    else if (json.length > MAX_CITY_DATA_CHARS) {
      ctx.addIssue({ code: 'custom', message: `is ${json.length} characters as JSON (at most ${MAX_CITY_DATA_CHARS}); summarise it first` })
    }
  }),
  city: z.string().trim().min(1).max(100).optional(),
})

export type CitizenAnswerInput = z.output<typeof citizenAnswerInputSchema>

/** Drops Markdown emphasis, headings and fences: the answer is shown as plain text. */
const plainText = (text: string) =>
  text
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .trim()

export const citizenAnswerTask = defineTask({
  name: 'citizen-answer',
  description: "Draft an answer to a citizen's question from the city's current data",
  inputSchema: citizenAnswerInputSchema,
  defaults: { max_tokens: 400, temperature: 0.3 },
  buildPrompt(input: CitizenAnswerInput) {
    return assemblePrompt({
      instructions: [
        `Draft an answer to a citizen's question for the staff of ${input.city ? 'the city named below' : 'a city'}. ` +
          "Use only the city's current data below. If the data does not answer the question, say plainly that " +
          'the current data does not answer it, and do not guess. Never invent figures. Do not give safety or ' +
          'emergency instructions; for emergencies refer to the official emergency services. A member of staff ' +
          'reviews the answer before it is published.',
      ],
      data: [
        ['city', input.city],
        ['question', input.question],
        ['city-data', input.cityData ?? null],
      ],
      output: 'plain text (no Markdown), at most 150 words, in the language of the question.',
    })
  },
  parseOutput: (text: string) => plainText(readProse('citizen-answer', text, 3000)),
  formatOutput: (output: string) => output,
})
