import { LRUCache } from 'lru-cache'
import pLimit, { type LimitFunction } from 'p-limit'

import type { AlertRule } from '@/alerts'
import type { FiredAlert, FreshAlerts } from '@/alerts/notices'
import { type Cache, SwrCache, type SwrCodec, type SwrState } from '@/cache'
import { type BBox, type Feature, type NgsiClient, type NormalizedEntity, type QueryRow, rowsToQuery, toFeature } from '@/ngsi'

import { type AppliedChanges, applyChanges, createLayerEncoder, eachFeature, type LayerBody, lineWithinBox, pickFeatures, rewriteBody } from './body'
import type { AttributeDisplay } from '../shared/presentation'
import { createPreviewBuilder, type LayerPreview, type PreviewRequest } from '../shared/preview'
import { cellOf, compareCells, type SortDirection } from '../shared/sorting'

export type { LayerBody } from './body'

const MB = 1024 * 1024

/** What the features route needs of a map layer (the collection document, reduced). */
export interface LayerSpec {
  id: string | number
  /** Part of the cache key: editing a layer never serves data shaped by its old settings. */
  updatedAt: string
  entityType: string
  attributes: string[]
  filters: QueryRow[]
  alertRules: AlertRule[]
  /** How the layer shows its attributes: alert messages write `{value}` and `{attribute}` with it. */
  display?: AttributeDisplay[]
  contextUrl?: string
  refreshSeconds: number
  maxFeatures: number
  /** Live updates: the subscription's `throttling` in whole seconds (0: none). */
  liveThrottleSeconds?: number
}

/** A slice of a layer, in its order or sorted by a column, for tables that page through the server. */
export interface LayerPage {
  offset: number
  limit: number
  sort?: { column: string; direction: SortDirection }
}

export interface LayerResult extends LayerBody {
  state: SwrState
}

export interface LayerFeatureServiceOptions {
  client: NgsiClient
  cache: Cache
  now?: () => number
  /** How long the last good data answers for a failing broker. Default one day. */
  keepSeconds?: number
  /**
   * Broker loads running at once in this process (default 2); more wait their turn. Each holds a
   * few pages and its compressor, so this bounds memory however many layers go cold together.
   */
  maxConcurrentLoads?: number
  /**
   * Told the alerts of every load from the broker (never of a cache read), after the load is
   * cached: alert notices are counted there, once per fresh data, whoever asked for it.
   */
  onFreshAlerts?: (alerts: FreshAlerts) => void
}

// Cached as [4-byte meta length][meta JSON][gzipped body]: Redis-safe and cheap to split.
const codec: SwrCodec<LayerBody> = {
  encode: ({ gzipped, etag, meta }) => {
    const head = Buffer.from(JSON.stringify({ etag, meta }))
    const length = Buffer.alloc(4)
    length.writeUInt32BE(head.length)
    return Buffer.concat([length, head, gzipped])
  },
  decode: (raw) => {
    const buffer = typeof raw === 'string' ? Buffer.from(raw, 'binary') : raw
    const headLength = buffer.readUInt32BE(0)
    const { etag, meta } = JSON.parse(buffer.subarray(4, 4 + headLength).toString('utf8')) as Omit<LayerBody, 'gzipped'>
    return { etag, meta, gzipped: buffer.subarray(4 + headLength) }
  },
}

/**
 * One stale-while-revalidate cache per layer refresh interval: data is fresh for the interval, then
 * served stale for as long while it reloads, and kept `keepSeconds` to answer a failing broker.
 */
export function swrPerRefresh<V>({ cache, codec, now, keepSeconds }: { cache: Cache; codec: SwrCodec<V>; now: () => number; keepSeconds: number }) {
  const byRefresh = new Map<number, SwrCache<V>>()
  return (refreshSeconds: number): SwrCache<V> => {
    let swr = byRefresh.get(refreshSeconds)
    if (!swr) {
      swr = new SwrCache<V>({
        cache,
        codec,
        now,
        freshSeconds: refreshSeconds,
        staleSeconds: refreshSeconds,
        keepSeconds: Math.max(keepSeconds, refreshSeconds * 2),
        errorCooldownSeconds: Math.min(refreshSeconds, 15),
      })
      byRefresh.set(refreshSeconds, swr)
    }
    return swr
  }
}

// Bodies are bounded by bytes, not by count: one 500,000-feature body is ~15 MB.
const boundedByBytes = (maxBytes: number) => ({ maxSize: maxBytes, sizeCalculation: (body: LayerBody) => Math.max(1, body.gzipped.byteLength) })

/**
 * Map layer data: broker → normalised features with alerts → one gzipped GeoJSON body, cached
 * stale-while-revalidate (Redis or in-process) and shared by every request and replica.
 */
/** Entity ids per read-back request: a URL with 50 URNs stays well under every broker's and proxy's limit. */
const IDS_PER_READ = 50

/** What the broker is asked for a layer: its type, its attributes and the location, its filters; at most `limit` entities. */
const layerEntityQuery = (layer: LayerSpec, limit: number) => ({
  type: layer.entityType,
  attrs: [...new Set([...layer.attributes, 'location'])],
  q: layer.filters.length > 0 ? rowsToQuery(layer.filters) : undefined,
  limit,
})

export class LayerFeatureService {
  /** Each feature of a body `get` returned, parsed one at a time. */
  readonly eachFeature = eachFeature

  private readonly client: NgsiClient
  private readonly cache: Cache
  private readonly now: () => number
  private readonly loadSlot: LimitFunction
  private readonly swrFor: (refreshSeconds: number) => SwrCache<LayerBody>
  // A one-second copy in process memory: hot layers are not re-read from Redis per request. Dropped
  // when it expires: kept until evicted, every layer loaded in the last 200 stayed in memory.
  private readonly hot: LRUCache<string, LayerBody>
  private readonly previews = new LRUCache<string, LayerPreview>({ max: 64 })
  private readonly staleVariants = new LRUCache<string, LayerBody>(boundedByBytes(32 * MB))
  // Pages of large layers: a table asks for the same few pages again on every refresh.
  private readonly pages = new LRUCache<string, LayerBody>(boundedByBytes(16 * MB))
  // Positions of a body's features in a table's order: 4 bytes a feature, 2 MB for 500,000.
  private readonly orders = new LRUCache<string, Uint32Array>({ maxSize: 32 * MB, sizeCalculation: (order) => Math.max(1, order.byteLength) })
  private readonly reading = new Map<string, Promise<{ body: LayerBody; state: SwrState }>>()
  private readonly onFreshAlerts?: (alerts: FreshAlerts) => void

  constructor({ client, cache, now = Date.now, keepSeconds = 86_400, maxConcurrentLoads = 2, onFreshAlerts }: LayerFeatureServiceOptions) {
    this.client = client
    this.onFreshAlerts = onFreshAlerts
    this.cache = cache
    this.now = now
    this.loadSlot = pLimit(maxConcurrentLoads)
    this.hot = new LRUCache<string, LayerBody>({ ...boundedByBytes(64 * MB), ttl: 1_000, ttlResolution: 0, ttlAutopurge: true, perf: { now } })
    this.swrFor = swrPerRefresh({ cache, codec, now, keepSeconds })
  }

  /** The layer's features. Throws the broker's error only when no last good data exists. */
  async get(layer: LayerSpec, options: { tenant?: string; bbox?: BBox; page?: LayerPage } = {}): Promise<LayerResult> {
    const key = this.keyOf(layer, options.tenant)
    let state: SwrState = 'fresh'
    let result = this.hot.get(key)
    if (!result) {
      // Requests arriving together share one cache read (the body can be megabytes from Redis).
      let pending = this.reading.get(key)
      if (!pending) {
        pending = this.readThrough(key, layer, options.tenant).finally(() => this.reading.delete(key))
        this.reading.set(key, pending)
      }
      ;({ body: result, state } = await pending)
    }
    if (options.page) return { ...(await this.pageOf(result, options.page)), state }
    if (!options.bbox) return { ...result, state }
    const bbox = options.bbox
    const meta = result.meta
    return { ...(await rewriteBody(result, (line) => lineWithinBox(bbox, line), (count) => ({ ...meta, count }))), state }
  }

  /**
   * Applies live changes (from a broker notification) to the cached body of the layer for one city,
   * under a lock so that two replicas applying notifications together lose neither. Undefined when
   * nothing is cached: the next request loads the broker's current state anyway.
   */
  async applyLive(layer: LayerSpec, tenant: string | undefined, changes: { upserted: Feature[]; removed: string[] }): Promise<AppliedChanges | undefined> {
    const key = this.keyOf(layer, tenant)
    const swr = this.swrFor(layer.refreshSeconds)
    const lock = await this.liveLock(key)
    try {
      const cached = await swr.peek(key)
      if (!cached) return undefined
      const now = new Date(this.now())
      const applied = await applyChanges(cached.value, changes, { alertRules: layer.alertRules, now, display: layer.display })
      if (applied.upserted.length === 0 && applied.removed.length === 0) return applied
      await swr.put(key, applied.body)
      this.hot.set(key, applied.body)
      // Pushed data alerts citizens as polled data does: the notices' claims make the two one notice.
      this.tellFreshAlerts(layer, tenant, now, applied.fired)
      return applied
    } finally {
      await lock?.release()
    }
  }

  /**
   * The first broker entity (of the first `sample`) whose values, time or position differ from the
   * layer's cached body for one city, or that the body lacks; undefined when they agree or nothing
   * is cached. Entities observed within the last `graceMs` are passed over: their notification may
   * be on its way. A cheap probe for live checks (one small request), not a full comparison.
   */
  async firstDifference(layer: LayerSpec, tenant: string | undefined, { sample, graceMs }: { sample: number; graceMs: number }): Promise<string | undefined> {
    const cached = await this.swrFor(layer.refreshSeconds).peek(this.keyOf(layer, tenant))
    if (!cached) return undefined
    const { entities } = await this.client.queryEntities(layerEntityQuery(layer, Math.min(sample, layer.maxFeatures)), { tenant, contextUrl: layer.contextUrl })
    const settledBefore = this.now() - graceMs
    const fromBroker = new Map<string, Feature>()
    for (const entity of entities) {
      const feature = toFeature(entity, layer.attributes)
      const observedAt = typeof feature?.properties.observedAt === 'string' ? Date.parse(feature.properties.observedAt) : Number.NaN
      if (feature && !(observedAt > settledBefore)) fromBroker.set(String(feature.id), feature)
    }
    const compared = ['observedAt', ...layer.attributes]
    const changed: string[] = []
    await eachFeature(cached.value, (feature) => {
      const id = String(feature.id)
      const current = fromBroker.get(id)
      if (!current) return
      fromBroker.delete(id)
      const same = JSON.stringify(current.geometry) === JSON.stringify(feature.geometry) && compared.every((name) => JSON.stringify(current.properties[name]) === JSON.stringify(feature.properties[name]))
      if (!same) changed.push(id)
    })
    // Left in fromBroker: entities the body lacks, which says nothing when the body holds only the first maxFeatures.
    return changed[0] ?? (cached.value.meta.truncated ? undefined : fromBroker.keys().next().value)
  }

  /**
   * The layer's entities with these ids as the broker holds them now (of the layer's type,
   * matching its filters): what a notification named, read back instead of taken on trust. An id
   * the broker does not return is gone from the layer (deleted, or no longer matching its filters).
   */
  async entitiesByIds(layer: LayerSpec, tenant: string | undefined, ids: string[]): Promise<NormalizedEntity[]> {
    const found: NormalizedEntity[] = []
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      const chunk = ids.slice(start, start + IDS_PER_READ)
      const { entities } = await this.client.queryEntities({ ...layerEntityQuery(layer, chunk.length), id: chunk }, { tenant, contextUrl: layer.contextUrl })
      found.push(...entities)
    }
    return found
  }

  /** Forgets this process's one-second copy of a layer another replica changed. */
  forgetHot(layerId: string | number, tenant: string | undefined): void {
    const prefix = `layer:${layerId}:`
    const suffix = `:${tenant ?? ''}`
    for (const key of this.hot.keys()) if (key.startsWith(prefix) && key.endsWith(suffix)) this.hot.delete(key)
  }

  private keyOf(layer: LayerSpec, tenant: string | undefined): string {
    return `layer:${layer.id}:${layer.updatedAt}:${tenant ?? ''}`
  }

  /** The apply lock of a layer body: waits up to 5 s for another applier, then goes on (fail open, as the cache's locks do). */
  private async liveLock(key: string) {
    const deadline = Date.now() + 5_000
    for (;;) {
      const lock = await this.cache.tryLock(`live-apply:${key}`, 10_000)
      if (lock || Date.now() > deadline) return lock
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** What a page shows of a layer before the browser has it all, read feature by feature from the body. */
  async previewOf(body: LayerBody, request: PreviewRequest): Promise<LayerPreview> {
    const key = `${body.etag}:${JSON.stringify(request)}`
    const known = this.previews.get(key)
    if (known) return known
    const builder = createPreviewBuilder(request)
    await eachFeature(body, builder.add)
    const preview = builder.result()
    this.previews.set(key, preview)
    return preview
  }

  private async readThrough(key: string, layer: LayerSpec, tenant: string | undefined): Promise<{ body: LayerBody; state: SwrState }> {
    const loaded = await this.swrFor(layer.refreshSeconds).getOrLoad(key, () => this.loadSlot(() => this.load(layer, tenant)))
    const body = loaded.state === 'stale-error' ? await this.staleVariant(loaded.value) : loaded.value
    if (loaded.state !== 'stale-error') this.hot.set(key, body)
    return { body, state: loaded.state }
  }

  /** Broker pages → features → gzip as they arrive; a failure midway discards the whole load. */
  private async load(layer: LayerSpec, tenant: string | undefined): Promise<LayerBody> {
    const fetchedAt = new Date(this.now())
    const encoder = createLayerEncoder({ attributes: layer.attributes, alertRules: layer.alertRules, fetchedAt, display: layer.display })
    try {
      const { truncated } = await this.client.streamEntities(
        layerEntityQuery(layer, layer.maxFeatures),
        (entities) => encoder.add(entities),
        { tenant, contextUrl: layer.contextUrl },
      )
      const body = await encoder.finish(truncated)
      this.tellFreshAlerts(layer, tenant, fetchedAt, encoder.fired())
      return body
    } catch (error) {
      encoder.abort()
      throw error
    }
  }

  /** Hands a load's alerts to the notices listener; its failures are its own, never the load's. */
  private tellFreshAlerts(layer: LayerSpec, tenant: string | undefined, fetchedAt: Date, alerts: FiredAlert[]) {
    if (!this.onFreshAlerts || layer.alertRules.length === 0) return
    try {
      this.onFreshAlerts({ layerId: String(layer.id), city: tenant ?? '', fetchedAt, alerts })
    } catch {
      // The listener queues work of its own and logs its failures; the layer's data is unaffected.
    }
  }

  /** The last good body relabelled `stale: true`, made once per version. */
  private async staleVariant(body: LayerBody): Promise<LayerBody> {
    const known = this.staleVariants.get(body.etag)
    if (known) return known
    const variant = await rewriteBody(body, () => true, () => ({ ...body.meta, stale: true }))
    this.staleVariants.set(body.etag, variant)
    return variant
  }

  /** `offset` features skipped, then up to `limit`, in the sort asked for; meta.total counts the whole layer. */
  private async pageOf(body: LayerBody, { offset, limit, sort }: LayerPage): Promise<LayerBody> {
    const key = `${body.etag}:${offset}:${limit}:${sort?.column ?? ''}:${sort?.direction ?? ''}`
    const known = this.pages.get(key)
    if (known) return known
    const metaFor = (count: number) => ({ ...body.meta, count, total: body.meta.count })
    let page: LayerBody
    if (sort) {
      page = await pickFeatures(body, (await this.orderOf(body, sort)).subarray(offset, offset + limit), metaFor)
    } else {
      let seen = 0
      page = await rewriteBody(body, () => seen++ >= offset, metaFor, { limit })
    }
    this.pages.set(key, page)
    return page
  }

  /** The positions of the body's features sorted by a column (stable), made once per version and order. */
  private async orderOf(body: LayerBody, { column, direction }: NonNullable<LayerPage['sort']>): Promise<Uint32Array> {
    const key = `${body.etag}:${column}:${direction}`
    const known = this.orders.get(key)
    if (known) return known
    const cells: unknown[] = []
    await eachFeature(body, (feature) => cells.push(cellOf(feature, column)))
    const order = new Uint32Array(cells.length).map((_, position) => position)
    order.sort((a, b) => compareCells(cells[a], cells[b], direction) || a - b)
    this.orders.set(key, order)
    return order
  }
}
