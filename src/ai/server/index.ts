/** AI helpers: gateway client, fallback, editorial tasks. No Next or Payload imports. */
export * from './gateway'
export * from './tasks'
export { runAiTask, TaskInputError, type AiTaskRunOptions, type AiTaskRunResult, type FailedModel } from './runTask'
