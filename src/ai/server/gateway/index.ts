export {
  API_KEY_PREFIX,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MIN_RETRY_WAIT_MS,
  FREE_DEFAULT_MODEL,
  GatewayClient,
  generateTextRequestSchema,
  type GatewayConfig,
  type GenerateTextRequest,
  type GenerationResult,
  type GenerationUsage,
  type KeyInfo,
  type ModelInfo,
} from './client'
export {
  AllModelsFailedError,
  classifyStatus,
  DAILY_CAP_MARKER,
  GatewayError,
  isDailyCap,
  redactKeys,
  type GatewayErrorCode,
  type ModelFailure,
} from './errors'
export {
  AI_DISABLED_MESSAGE,
  describeFailure,
  failureMessage,
  MANUAL_ENTRY_MESSAGE,
  type FallbackModeSettings,
} from './fallback-mode'
export { FREE_SUFFIX, isFreeModel, modelChain } from './models'
export { MODEL_ID, parseModelList, type ParsedModelList } from '@/env/models'
export { checkGateway, type GatewayCheck, type ModelAvailability } from './check'
