import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'

import { LRUCache } from 'lru-cache'

import { type AlertRule, evaluateRules } from '@/alerts'
import type { Cache, SwrCache, SwrCodec, SwrState } from '@/cache'
import { createSwrCache } from '@/cache'
import { type BBox, type NgsiClient, type QueryRow, rowsToQuery, toFeatureCollection, type Feature } from '@/ngsi'

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** What the features route needs of a map layer (the collection document, reduced). */
export interface LayerSpec {
  id: string | number
  /** Part of the cache key: editing a layer never serves data shaped by its old settings. */
  updatedAt: string
  entityType: string
  attributes: string[]
  filters: QueryRow[]
  alertRules: AlertRule[]
  contextUrl?: string
  refreshSeconds: number
  maxFeatures: number
}

export interface LayerMeta {
  count: number
  fetchedAt: string
  stale: boolean
  truncated: boolean
  /** Entities without a usable location, left off the map. */
  skipped: number
  /** Unit symbol per attribute, where the broker gave a unitCode. */
  units: Record<string, string>
}

/** One rendered layer: the gzipped GeoJSON body, its ETag and its meta. */
export interface LayerBody {
  gzipped: Buffer
  etag: string
  meta: LayerMeta
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

// Of the gzipped bytes (same text, same bytes): a fourteenth of the JSON to hash for 50,000 features.
const etagOf = (gzipped: Buffer) => `"${createHash('sha1').update(gzipped).digest('base64url')}"`

/** meta first, so the stale variant can be derived by patching the first "stale" flag. */
async function render(features: Feature[], meta: LayerMeta): Promise<LayerBody> {
  const gzipped = await gzipAsync(JSON.stringify({ type: 'FeatureCollection', meta, features }))
  return { gzipped, etag: etagOf(gzipped), meta }
}

function unitsOf(entities: { attributes: Record<string, { unit?: string }> }[], attributes: string[]): Record<string, string> {
  const units: Record<string, string> = {}
  for (const name of attributes) {
    const unit = entities.find((entity) => entity.attributes[name]?.unit)?.attributes[name].unit
    if (unit) units[name] = unit
  }
  return units
}

const withinBox = ([west, south, east, north]: BBox, feature: Feature) => {
  const geometry = feature.geometry
  if (geometry.type !== 'Point') return true
  const [lon, lat] = geometry.coordinates as number[]
  return lon >= west && lon <= east && lat >= south && lat <= north
}

/**
 * Map layer data: broker → normalised features with alerts → one gzipped GeoJSON body, cached
 * stale-while-revalidate (Redis or in-process) and shared by every request and replica.
 */
export function createLayerFeatureService({ client, cache, now = Date.now, keepSeconds = 86_400 }: LayerFeatureServiceOptions) {
  const swrByRefresh = new Map<number, SwrCache<LayerBody>>()
  // A one-second copy in process memory: hot layers are not re-read from Redis per request.
  const hot = new LRUCache<string, LayerBody>({ max: 200, ttl: 1_000, ttlResolution: 0, perf: { now } })
  const parsed = new LRUCache<string, Feature[]>({ max: 8 })
  const staleVariants = new LRUCache<string, LayerBody>({ max: 32 })

  function swrFor(refreshSeconds: number) {
    let swr = swrByRefresh.get(refreshSeconds)
    if (!swr) {
      swr = createSwrCache<LayerBody>({
        cache,
        codec,
        now,
        freshSeconds: refreshSeconds,
        staleSeconds: refreshSeconds,
        keepSeconds: Math.max(keepSeconds, refreshSeconds * 2),
        errorCooldownSeconds: Math.min(refreshSeconds, 15),
      })
      swrByRefresh.set(refreshSeconds, swr)
    }
    return swr
  }

  async function load(layer: LayerSpec, tenant: string | undefined): Promise<LayerBody> {
    const { entities, truncated } = await client.queryEntities(
      {
        type: layer.entityType,
        attrs: [...new Set([...layer.attributes, 'location'])],
        q: layer.filters.length > 0 ? rowsToQuery(layer.filters) : undefined,
        limit: layer.maxFeatures,
      },
      { tenant, contextUrl: layer.contextUrl },
    )
    const { features, skipped } = toFeatureCollection(entities, { attributes: layer.attributes })
    const evaluatedAt = new Date(now())
    for (const feature of features) {
      const observedAt = feature.properties.observedAt
      const alert = evaluateRules(layer.alertRules, feature.properties, {
        now: evaluatedAt,
        observedAt: typeof observedAt === 'string' ? observedAt : undefined,
      })
      if (alert) feature.properties.alert = { level: alert.level, message: alert.message }
    }
    return render(features, {
      count: features.length,
      fetchedAt: evaluatedAt.toISOString(),
      stale: false,
      truncated,
      skipped,
      units: unitsOf(entities, layer.attributes),
    })
  }

  /** The last good body relabelled `stale: true`, made once per version. */
  async function staleVariant(body: LayerBody): Promise<LayerBody> {
    const known = staleVariants.get(body.etag)
    if (known) return known
    const text = (await gunzipAsync(body.gzipped)).toString('utf8').replace('"stale":false', '"stale":true')
    const gzipped = await gzipAsync(text)
    const variant = { gzipped, etag: etagOf(gzipped), meta: { ...body.meta, stale: true } }
    staleVariants.set(body.etag, variant)
    return variant
  }

  async function featuresOf(body: LayerBody): Promise<Feature[]> {
    const known = parsed.get(body.etag)
    if (known) return known
    const features = (JSON.parse((await gunzipAsync(body.gzipped)).toString('utf8')) as { features: Feature[] }).features
    parsed.set(body.etag, features)
    return features
  }

  const reading = new Map<string, Promise<{ body: LayerBody; state: SwrState }>>()

  async function readThrough(key: string, layer: LayerSpec, tenant: string | undefined) {
    const loaded = await swrFor(layer.refreshSeconds).getOrLoad(key, () => load(layer, tenant))
    const body = loaded.state === 'stale-error' ? await staleVariant(loaded.value) : loaded.value
    if (loaded.state !== 'stale-error') hot.set(key, body)
    return { body, state: loaded.state }
  }

  return {
    /** The features of a body `get` returned, parsed once per version (for renderers that need objects). */
    featuresOf,
    /** The layer's features. Throws the broker's error only when no last good data exists. */
    async get(layer: LayerSpec, options: { tenant?: string; bbox?: BBox } = {}): Promise<LayerResult> {
      const key = `layer:${layer.id}:${layer.updatedAt}:${options.tenant ?? ''}`
      let state: SwrState = 'fresh'
      let result = hot.get(key)
      if (!result) {
        // Requests arriving together share one cache read (the body can be megabytes from Redis).
        let pending = reading.get(key)
        if (!pending) {
          pending = readThrough(key, layer, options.tenant).finally(() => reading.delete(key))
          reading.set(key, pending)
        }
        ;({ body: result, state } = await pending)
      }
      if (!options.bbox) return { ...result, state }
      const bbox = options.bbox
      const features = (await featuresOf(result)).filter((feature) => withinBox(bbox, feature))
      return { ...(await render(features, { ...result.meta, count: features.length })), state }
    },
  }
}

export type LayerFeatureService = ReturnType<typeof createLayerFeatureService>
