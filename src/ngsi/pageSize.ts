// The page size each broker accepts, learned from its refusals: later loads start there instead of
// repeating the refused requests (Stellio refuses anything above 100 with a 403 on every load).

/** Where learned page sizes live; keyed by the broker's API base URL. */
export interface PageSizeMemory {
  get(broker: string): number | undefined
  set(broker: string, size: number): void
}

/** In process memory. */
export function createPageSizeMemory(): PageSizeMemory {
  const sizes = new Map<string, number>()
  return {
    get: (broker) => sizes.get(broker),
    set: (broker, size) => {
      if (Number.isInteger(size) && size >= 1) sizes.set(broker, size)
    },
  }
}

/** The size to start a load with: the configured one, unless the broker taught a smaller one. */
export function startingPageSize(memory: PageSizeMemory, broker: string, configured: number): number {
  const learned = memory.get(broker)
  return learned !== undefined && learned < configured ? learned : configured
}
