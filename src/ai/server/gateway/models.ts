/** The gateway's model chain (GATEWAY_MODEL, then the fallback list); ids and lists are checked by the settings (src/env/models.ts). */

export const FREE_SUFFIX = ':free'

export const isFreeModel = (model: string) => model.endsWith(FREE_SUFFIX)

/** The first model, then the fallbacks, each once and in order. */
export const modelChain = (first: string, fallbacks: readonly string[]): string[] => [...new Set([first, ...fallbacks])]
