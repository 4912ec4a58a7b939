import { HEX_COLOUR } from '@/ngsi/names'

import { extractJson, TaskOutputError } from './output'
import { layerData, layerInputSchema, type LayerInput } from './layer'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const MAX_COLOURS = 6

/** A JSON array of 1–6 `#rrggbb` strings (lower-cased, de-duplicated); anything else is rejected. */
export function parseHexColours(text: string): string[] {
  const json = extractJson(text, '[')
  if (!Array.isArray(json)) throw new TaskOutputError('colour-suggestion', ['expected a JSON array of "#rrggbb" colours'])
  const problems: string[] = []
  json.forEach((item, index) => {
    if (typeof item !== 'string' || !HEX_COLOUR.test(item)) {
      problems.push(`item ${index} (${JSON.stringify(item) ?? String(item)}) is not a "#rrggbb" colour`)
    }
  })
  if (json.length === 0) problems.push('no colour given')
  if (json.length > MAX_COLOURS) problems.push(`${json.length} colours given (at most ${MAX_COLOURS})`)
  if (problems.length > 0) throw new TaskOutputError('colour-suggestion', problems)
  return [...new Set((json as string[]).map((colour) => colour.toLowerCase()))]
}

export const colourSuggestionTask = defineTask({
  name: 'colour-suggestion',
  description: 'Suggest map colours for a layer (first = main colour)',
  inputSchema: layerInputSchema,
  defaults: { max_tokens: 120, temperature: 0.4 },
  buildPrompt(input: LayerInput) {
    return assemblePrompt({
      instructions: [
        'Suggest colours for drawing a map layer on a light street map. The first colour is the layer\'s main ' +
          'marker colour; up to five more may follow for graduated values of its attributes (low to high). Pick ' +
          'colours that fit what the layer shows, contrast with a light basemap and stay distinguishable for ' +
          'people with colour-vision deficiencies.',
      ],
      data: layerData(input),
      output: `a JSON array of 1 to ${MAX_COLOURS} colours as "#rrggbb" strings, for example ["#1f77b4", "#ff7f0e"], and nothing else.`,
    })
  },
  parseOutput: (text: string) => parseHexColours(text),
  formatOutput: (output: string[]) => JSON.stringify(output),
})
