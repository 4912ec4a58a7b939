// @ts-check
// Next.js's cache handler (next.config.mjs `cacheHandler`). Next imports it at run time outside the
// app's bundle, hence plain JavaScript.
import { LRUCache } from 'lru-cache'
import fileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'

/** @type {typeof import('next/dist/server/lib/incremental-cache/file-system-cache').default} */
const FileSystemCache = /** @type {any} */ (fileSystemCache).default ?? fileSystemCache

// Published by the server's start-up (src/instrumentation-node.ts) when REDIS_URL is set; see src/cache/revalidatedTags.ts.
const REVALIDATED_TAGS = Symbol.for('citydash.revalidatedTags')
const TAGS_HEADER = 'x-next-cache-tags'

/** @returns {import('./revalidatedTags').RevalidatedTags | undefined} */
const sharedTags = () => /** @type {any} */ (globalThis)[REVALIDATED_TAGS]

/**
 * The tags an entry answers to: a rendered page or route lists them in its headers (its path and
 * layouts included); a fetch gets them from the request.
 * @param {import('next/dist/server/lib/incremental-cache').CacheHandlerValue} entry
 * @param {{ tags?: string[]; softTags?: string[] }} ctx
 */
function tagsOf(entry, ctx) {
  const value = /** @type {{ kind?: string; headers?: Record<string, unknown> } | null} */ (entry.value)
  if (value?.kind === 'FETCH') return [...(ctx.tags ?? []), ...(ctx.softTags ?? [])]
  const header = value?.headers?.[TAGS_HEADER]
  return typeof header === 'string' ? header.split(',') : []
}

// Optimized images (next.config.mjs `images.customCacheHandler`): Next's memory store refuses
// them, so this process keeps them here, bounded by their bytes; without it every request re-encoded.
const IMAGE_CACHE_BYTES = 50 * 1024 * 1024
const OPTIMIZED_IMAGES = Symbol.for('citydash.optimizedImages')
/** @returns {LRUCache<string, { value: { kind: string; buffer: Buffer }; lastModified: number }>} */
const optimizedImages = () =>
  /** @type {any} */ (globalThis)[OPTIMIZED_IMAGES] ??= new LRUCache({
    maxSize: IMAGE_CACHE_BYTES,
    sizeCalculation: (/** @type {{ value: { buffer?: Buffer } }} */ entry) => Math.max(1, entry.value.buffer?.length ?? 1),
  })

/** @param {{ kind?: string } | undefined} ctx */
const isImage = (ctx) => ctx?.kind === 'IMAGE'

/**
 * True for a rendered "not found": any address can ask for one, so keeping them would let anyone
 * fill the cache with pages that say nothing.
 * @param {unknown} value
 */
const isNotFound = (value) => {
  const entry = /** @type {{ kind?: string; status?: number } | null} */ (value)
  return (entry?.kind === 'APP_PAGE' || entry?.kind === 'APP_ROUTE' || entry?.kind === 'PAGES') && entry.status === 404
}

/**
 * Next's own cache: the build's prerendered pages read from .next, pages rendered since kept in
 * Next's memory LRU only (`isrFlushToDisk: false` in next.config.mjs, bounded by
 * `cacheMaxMemorySize`), so nothing a request renders reaches the disk or another process started
 * from the same build. Renders of unknown addresses (404) are not kept at all. With REDIS_URL set
 * the revalidations are shared: revalidatePath/revalidateTag on one replica (an editor's save) are
 * recorded in Redis, and any replica's entry rendered before them is a miss, so the next request
 * renders the page afresh there. Optimized images are kept apart, in optimizedImages.
 */
export default class SharedRevalidationCache extends FileSystemCache {
  /** @type {InstanceType<typeof FileSystemCache>['set']} */
  async set(key, data, ctx) {
    if (isImage(/** @type {any} */ (ctx))) {
      if (data) optimizedImages().set(key, { value: /** @type {any} */ (data), lastModified: Date.now() })
      return
    }
    if (isNotFound(data)) return
    await super.set(key, data, ctx)
  }

  /** @type {InstanceType<typeof FileSystemCache>['get']} */
  async get(key, ctx) {
    if (isImage(/** @type {any} */ (ctx))) return /** @type {any} */ (optimizedImages().get(key) ?? null)
    const entry = await super.get(key, ctx)
    const tags = sharedTags()
    if (!entry || !tags) return entry
    const revalidatedAt = await tags.latest(tagsOf(entry, /** @type {any} */ (ctx)))
    return revalidatedAt !== undefined && revalidatedAt >= entry.lastModified ? null : entry
  }

  /** @type {InstanceType<typeof FileSystemCache>['revalidateTag']} */
  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations)
    await sharedTags()?.mark(typeof tags === 'string' ? [tags] : tags, Date.now())
  }
}
