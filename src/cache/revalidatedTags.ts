import type { Redis } from 'ioredis'

import { whenReady } from './redisClient'
import { outageLogger, type CacheLogger } from './types'

/**
 * When each Next.js cache tag (a path or a named tag) was last revalidated, shared by every replica
 * through one Redis hash. Next keeps this per process, so a save on one replica left the others'
 * rendered pages in place; src/cache/nextCacheHandler.mjs asks this store instead.
 */
export type RevalidatedTags = {
  /** The latest revalidation (ms since the epoch) among `tags`; undefined when none was, or Redis cannot answer. */
  latest(tags: string[]): Promise<number | undefined>
  /** Records that `tags` were revalidated at `at`; a Redis failure is logged, not thrown. */
  mark(tags: string[], at: number): Promise<void>
}

const READY_WAIT_MS = 250

export function createRevalidatedTags(client: Redis, key: string, logger: CacheLogger): RevalidatedTags {
  const outage = outageLogger(logger, 'Next.js revalidated tags in Redis')
  return {
    async latest(tags) {
      if (tags.length === 0 || !(await whenReady(client, READY_WAIT_MS))) return undefined
      try {
        const times = (await client.hmget(key, ...tags)).filter((time): time is string => time !== null).map(Number)
        outage.succeeded()
        return times.length > 0 ? Math.max(...times) : undefined
      } catch (error) {
        outage.failed(error)
        return undefined
      }
    },
    async mark(tags, at) {
      if (tags.length === 0) return
      if (!(await whenReady(client, READY_WAIT_MS))) {
        outage.failed(new Error('not connected'))
        return
      }
      try {
        await client.hset(key, Object.fromEntries(tags.map((tag) => [tag, String(at)])))
        outage.succeeded()
      } catch (error) {
        outage.failed(error)
      }
    },
  }
}

// Read by src/cache/nextCacheHandler.mjs, which Next loads outside the app's bundle.
const PROCESS_WIDE = Symbol.for('citydash.revalidatedTags')

/** Makes `tags` the store this process's Next.js cache handler consults. */
export function shareRevalidatedTags(tags: RevalidatedTags) {
  ;(globalThis as { [PROCESS_WIDE]?: RevalidatedTags })[PROCESS_WIDE] = tags
}
