// The page size each broker accepts, learned from its refusals: later loads start there instead of
// repeating the refused requests (Stellio refuses anything above 100 with a 403 on every load).
// Kept in the shared cache where there is one (Redis), so replicas and restarts learn it once.

import type { Cache } from '@/cache'

/** Where learned page sizes live; keyed by the broker's API base URL. */
export interface PageSizeMemory {
  get(broker: string): Promise<number | undefined>
  set(broker: string, size: number): Promise<void>
}

const isPageSize = (size: unknown): size is number => Number.isInteger(size) && (size as number) >= 1

/** In process memory (one client's own, and tests). */
export function createPageSizeMemory(): PageSizeMemory {
  const sizes = new Map<string, number>()
  return {
    get: async (broker) => sizes.get(broker),
    set: async (broker, size) => {
      if (isPageSize(size)) sizes.set(broker, size)
    },
  }
}

/** A day: a broker whose limit was raised gets asked for the configured size again after that. */
const REMEMBER_SECONDS = 86_400

/** In a cache (Redis shared by replicas, or memory): the store's failures read as "nothing learned". */
export function cachedPageSizeMemory(cache: Pick<Cache, 'get' | 'set'>): PageSizeMemory {
  const key = (broker: string) => `ngsi-page-size:${broker}`
  return {
    async get(broker) {
      const size = Number((await cache.get(key(broker)))?.value)
      return isPageSize(size) ? size : undefined
    },
    async set(broker, size) {
      if (isPageSize(size)) await cache.set(key(broker), { value: String(size), storedAt: Date.now() }, REMEMBER_SECONDS)
    },
  }
}

/** The size to start a load with: the configured one, unless the broker taught a smaller one. */
export async function startingPageSize(memory: PageSizeMemory, broker: string, configured: number): Promise<number> {
  const learned = await memory.get(broker)
  return learned !== undefined && learned < configured ? learned : configured
}
