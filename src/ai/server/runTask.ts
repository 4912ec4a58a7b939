import type { z } from 'zod'

import { GatewayClient } from './gateway/client'
import { GatewayError } from './gateway/errors'
import {
  AI_DISABLED_MESSAGE,
  describeFailure,
  failureMessage,
  MANUAL_ENTRY_MESSAGE,
  type FallbackModeSettings,
} from './gateway/fallback-mode'
import { aiTasks } from './tasks'
import type { AiTaskName } from '../shared/taskNames'
import { TaskOutputError } from './tasks/output'
import type { AiTask } from './tasks/task'

export type AiTaskRunResult =
  | {
      mode: 'ai'
      task: AiTaskName
      /** The draft text (formatOutput of the parsed output). */
      content: string
      output: unknown
      model: string
      /** The models that failed (or were skipped) before `model` wrote it, and why. */
      failedModels: FailedModel[]
      prompt: string
      message?: undefined
    }
  | { mode: 'manual'; task: AiTaskName; content: ''; message: string; prompt?: string }

export type FailedModel = { model: string; reason: string }

export type AiTaskRunOptions = {
  signal?: AbortSignal
  /** Overrides the task's max_tokens / temperature. */
  max_tokens?: number
  temperature?: number
}

/** Bad input for a task (answer 400): the zod issues, path by path. */
export class TaskInputError extends Error {
  readonly task: AiTaskName
  readonly issues: z.core.$ZodIssue[]

  constructor(task: AiTaskName, issues: z.core.$ZodIssue[]) {
    super(`invalid input for ${task}: ${issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}`)
    this.name = 'TaskInputError'
    this.task = task
    this.issues = issues
  }
}

/**
 * Validates the input (throws TaskInputError), builds the prompt, generates with model fallback
 * and parses the answer. Gateway trouble, AI switched off or an unusable answer → manual mode.
 */
export async function runAiTask(
  settings: FallbackModeSettings,
  name: AiTaskName,
  rawInput: unknown,
  options: AiTaskRunOptions = {},
): Promise<AiTaskRunResult> {
  const task = aiTasks[name] as unknown as AiTask<z.ZodType, unknown>
  const parsed = task.inputSchema.safeParse(rawInput)
  if (!parsed.success) throw new TaskInputError(name, parsed.error.issues)
  if (!settings.enabled) return { mode: 'manual', task: name, content: '', message: AI_DISABLED_MESSAGE }
  const prompt = task.buildPrompt(parsed.data)
  try {
    if (!settings.gateway) throw new GatewayError({ code: 'missing_key', reason: 'the AI gateway is not configured' })
    const client = settings.gateway instanceof GatewayClient ? settings.gateway : new GatewayClient(settings.gateway)
    const result = await client.generate({
      prompt,
      max_tokens: options.max_tokens ?? task.defaults.max_tokens,
      temperature: options.temperature ?? task.defaults.temperature,
      signal: options.signal,
    }, settings.models)
    const output = task.parseOutput(result.content, parsed.data)
    const failedModels = result.failures.map(({ model, error }) => ({ model, reason: describeFailure(error) }))
    return { mode: 'ai', task: name, content: task.formatOutput(output), output, model: result.model, failedModels, prompt }
  } catch (error) {
    settings.onError?.(error)
    const message =
      error instanceof TaskOutputError
        ? `The AI answer could not be used (${error.problems.slice(0, 3).join('; ')}). ${MANUAL_ENTRY_MESSAGE}`
        : failureMessage(error)
    return { mode: 'manual', task: name, content: '', message, prompt }
  }
}
