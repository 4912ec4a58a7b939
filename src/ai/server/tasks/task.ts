import type { z } from 'zod'

import type { AiTaskName } from '../../shared/taskNames'

/**
 * One editorial task: validated input → one prompt → the model's text → a checked output.
 * `parseOutput` throws TaskOutputError when the answer cannot be used.
 */
export type AiTask<Schema extends z.ZodType, Output> = {
  readonly name: AiTaskName
  readonly description: string
  readonly inputSchema: Schema
  /** Sampling suited to the task, passed to the gateway unless the caller overrides them. */
  readonly defaults: { max_tokens: number; temperature: number }
  buildPrompt(input: z.output<Schema>): string
  /** `input` is the validated input (sample-data and search-keywords check against it). */
  parseOutput(text: string, input: z.output<Schema>): Output
  /** The output as the text of a draft (prose as is, structured outputs as JSON). */
  formatOutput(output: Output): string
}

export const defineTask = <Schema extends z.ZodType, Output>(task: AiTask<Schema, Output>) => task
