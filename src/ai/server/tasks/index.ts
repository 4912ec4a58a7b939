import { citizenAnswerTask } from './citizen-answer'
import { colourSuggestionTask } from './colour-suggestion'
import { documentationTask } from './documentation'
import { layerDescriptionTask } from './layer-description'
import type { AiTaskName } from '../../shared/taskNames'
import { postDraftTask } from './post-draft'
import { sampleDataTask } from './sample-data'
import { searchKeywordsTask } from './search-keywords'
import { translateTask } from './translate'

/** The eight editorial tasks by name: `{inputSchema, buildPrompt(input), parseOutput(text, input), …}`. */
export const aiTasks = {
  'post-draft': postDraftTask,
  'layer-description': layerDescriptionTask,
  'colour-suggestion': colourSuggestionTask,
  documentation: documentationTask,
  'sample-data': sampleDataTask,
  'search-keywords': searchKeywordsTask,
  'citizen-answer': citizenAnswerTask,
  translate: translateTask,
} as const satisfies Record<AiTaskName, { name: AiTaskName }>


export { isAiTaskName, taskNames, type AiTaskName } from '../../shared/taskNames'
export { defineTask, type AiTask } from './task'
export { TaskOutputError, extractJson, stripCodeFence } from './output'
export { DATA_RULES, dataBlock, safeJson } from './prompt'
export { layerInputSchema, type LayerInput } from './layer'
export { fieldCustomPrompt, postDraftInputSchema, type PostDraftInput } from './post-draft'
export { MAX_COLOURS, parseHexColours } from './colour-suggestion'
export { documentationInputSchema, type DocumentationInput } from './documentation'
export {
  geometryProblem,
  MAX_SAMPLE_ENTITIES,
  parseSampleEntities,
  sampleDataInputSchema,
  sampleEntityProblems,
  type NgsiLdAttribute,
  type NgsiLdEntity,
  type SampleDataInput,
} from './sample-data'
export { MAX_KEYWORD_LENGTH, MAX_KEYWORDS, parseKeywords, searchKeywordsInputSchema, type SearchKeywordsInput } from './search-keywords'
export { citizenAnswerInputSchema, MAX_CITY_DATA_CHARS, type CitizenAnswerInput } from './citizen-answer'
export { MAX_TRANSLATION_FIELDS, MAX_TRANSLATION_TEXT, parseTranslation, translateInputSchema, type TranslateInput } from './translate'
