/** The editorial tasks the AI helps with (POST /api/ai/generate `task`). */
export const taskNames = [
  'post-draft',
  'layer-description',
  'colour-suggestion',
  'documentation',
  'sample-data',
  'search-keywords',
  'citizen-answer',
  'translate',
] as const

export type AiTaskName = (typeof taskNames)[number]

export const isAiTaskName = (value: unknown): value is AiTaskName =>
  typeof value === 'string' && (taskNames as readonly string[]).includes(value)
