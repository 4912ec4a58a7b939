import type { AiTaskName } from '../../shared/taskNames'

export const MAX_PROBLEMS = 25

/** The model's answer could not be used; `problems` lists why (at most a screenful). */
export class TaskOutputError extends Error {
  readonly task: AiTaskName
  readonly problems: string[]

  constructor(task: AiTaskName, problems: string[]) {
    const shown = problems.slice(0, MAX_PROBLEMS)
    const more = problems.length > shown.length ? ` …and ${problems.length - shown.length} more` : ''
    super(`${task} output is invalid: ${shown.join('; ')}${more}`)
    this.name = 'TaskOutputError'
    this.task = task
    this.problems = problems
  }
}

const FENCE = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/

/** Drops one code fence wrapping the whole answer ("```json … ```"). */
export function stripCodeFence(text: string): string {
  const trimmed = text.trim()
  const match = FENCE.exec(trimmed)
  return match ? match[1].trim() : trimmed
}

/**
 * Finds the JSON in an answer: the whole text, a fenced block inside prose, or the span
 * from the first `open` bracket to the last `close`. Undefined when none parses.
 */
export function extractJson(text: string, open: '[' | '{' = '['): unknown {
  const close = open === '[' ? ']' : '}'
  const candidates = [stripCodeFence(text)]
  const fenced = /```[\w-]*[ \t]*\r?\n([\s\S]*?)```/.exec(text)
  if (fenced) candidates.push(fenced[1].trim())
  const start = text.indexOf(open)
  const end = text.lastIndexOf(close)
  if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1))
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate) as unknown
    } catch {
      // try the next candidate
    }
  }
  return undefined
}

/** A prose answer: unfenced, trimmed, without wrapping quotes; empty or oversized is an error. */
export function readProse(task: AiTaskName, text: string, maxLength: number): string {
  let prose = stripCodeFence(text)
  const quoted = /^"([\s\S]*)"$/.exec(prose)
  if (quoted && !quoted[1].includes('"')) prose = quoted[1].trim()
  if (prose === '') throw new TaskOutputError(task, ['the answer is empty'])
  if (prose.length > maxLength) {
    throw new TaskOutputError(task, [`the answer is ${prose.length} characters long (at most ${maxLength})`])
  }
  return prose
}
