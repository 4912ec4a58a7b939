import type { GatewayClient } from './client'
import { GatewayError, redactKeys } from './errors'
import { isFreeModel } from './models'

export type ModelAvailability = 'found' | 'free' | 'unknown'

export type GatewayCheck = {
  key: { valid: boolean; problem?: string; isFreeTier?: boolean; limit?: number | null; usage?: number }
  /** Each model of the chain as the gateway lists it: served (found), served at no cost (free) or not listed (unknown). */
  models: Array<{ id: string; availability: ModelAvailability }>
  /** Why the model list could not be read, when it could not. */
  modelsProblem?: string
}

const reasonOf = (error: unknown) => (error instanceof GatewayError ? error.reason : redactKeys(String((error as Error)?.message ?? error)))

/**
 * "Test the gateway": GET /key says whether the key is valid, GET /models whether each model of
 * the chain exists and is free. A key the gateway would refuse is reported without a request.
 */
export async function checkGateway(client: GatewayClient, chain: readonly string[], signal?: AbortSignal): Promise<GatewayCheck> {
  const keyProblem = client.keyProblem
  if (keyProblem) {
    return { key: { valid: false, problem: keyProblem.reason }, models: chain.map((id) => ({ id, availability: 'unknown' })) }
  }
  const [key, listed] = await Promise.allSettled([client.keyInfo({ signal }), client.listModels({ signal })])
  const check: GatewayCheck = {
    key:
      key.status === 'fulfilled'
        ? { valid: true, isFreeTier: key.value.isFreeTier, limit: key.value.limit, usage: key.value.usage }
        : { valid: false, problem: reasonOf(key.reason) },
    models: [],
  }
  const byId = new Map(listed.status === 'fulfilled' ? listed.value.map((model) => [model.id, model]) : [])
  if (listed.status === 'rejected') check.modelsProblem = reasonOf(listed.reason)
  check.models = chain.map((id) => {
    const model = byId.get(id)
    if (!model) return { id, availability: 'unknown' }
    return { id, availability: model.isFree || isFreeModel(id) ? 'free' : 'found' }
  })
  return check
}
