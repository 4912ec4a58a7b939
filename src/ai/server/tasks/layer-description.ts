import { readProse } from './output'
import { layerData, layerInputSchema, type LayerInput } from './layer'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const layerDescriptionTask = defineTask({
  name: 'layer-description',
  description: 'Describe a map layer for citizens',
  inputSchema: layerInputSchema,
  defaults: { max_tokens: 400, temperature: 0.5 },
  buildPrompt(input: LayerInput) {
    return assemblePrompt({
      instructions: [
        'Write a short description of a map layer for the citizens who see it on a city dashboard. Explain what ' +
          'the points on the map represent and what the listed attributes tell them, in plain language. Mention ' +
          'only what the layer name, entity type, attributes and source below support; do not invent numbers.',
      ],
      data: layerData(input),
      output: 'one or two short paragraphs of plain text (at most 120 words), no headings, no lists, no preamble.',
    })
  },
  parseOutput: (text: string) => readProse('layer-description', text, 2000),
  formatOutput: (output: string) => output,
})
