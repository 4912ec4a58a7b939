import 'server-only'

import { createHash } from 'node:crypto'
import { pipeline, Readable } from 'node:stream'
import { createGzip, gzipSync } from 'node:zlib'

import { z } from 'zod'

import { HttpError } from '@/server/errors'
import { enforceRateLimit, type LimitPolicy } from '@/server/rateLimit'
import type { BufferReply } from '@/server/pagesRoute'
import { type BBox, bboxSchema, NgsiError } from '@/ngsi'
import type { MapLayer } from '@/payload-types'
import { layerFeatures, layerTiles } from './services'

import { featureBatches, type LayerBody } from '../server/body'
import type { LayerPage } from '../server/features'
import { cachedAnswer, gzipReply, parseSearch, readableLayer } from './reply'
import { toLayerSpec } from '../server/spec'
import { citySchema } from './tenant'
import { DEFAULT_LOCALE } from '@/i18n/locales'

import { csvHeader, csvRows } from '../shared/csv'
import { attributeDisplayOf, createPresentation, DEFAULT_TIME_ZONE, type Presentation } from '../shared/presentation'
import { ALERT_PREVIEW_LIMIT, type PreviewRequest } from '../shared/preview'
import { STATISTICS } from '../shared/statistics'
import { layerTileAddressSchema } from '../server/tiles'

const city = citySchema.optional()
const count = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, `${name}: a whole number`)
    .transform(Number)
    .pipe(z.number().max(max, `${name}: at most ${max}`))
    .optional()

/** Rows of a page the table or CSV asks for at most. */
export const MAX_PAGE_LIMIT = 1_000

/** Names of columns, comma-separated: checked against the layer's attributes once it is known. */
const columnList = z
  .string()
  .max(2_000)
  .transform((text) => (text === '' ? [] : text.split(',')))
  .pipe(z.array(z.string().regex(/^[A-Za-z][\w]{0,63}$/, 'columns: attribute names')).max(100))

const featuresSearch = z
  .strictObject({
    bbox: z
      .string()
      .max(200)
      .transform((text) => text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
      .pipe(bboxSchema)
      .optional(),
    city,
    offset: count('offset', 10_000_000),
    limit: count('limit', MAX_PAGE_LIMIT),
    sort: z.string().regex(/^[A-Za-z][\w]{0,63}$/, 'sort: a column name').optional(),
    order: z.enum(['ascending', 'descending']).optional(),
    format: z.enum(['csv', 'geojson']).optional(),
    columns: columnList.optional(),
  })
  .refine(({ bbox, offset, limit }) => !bbox || (offset === undefined && limit === undefined), { message: 'Give bbox or offset and limit, not both' })
  .refine(({ sort, order, offset, limit }) => (sort === undefined && order === undefined) || offset !== undefined || limit !== undefined, {
    message: 'sort and order: for a page (offset, limit) only',
  })
  .refine(({ format, bbox, offset, limit }) => !format || (bbox === undefined && offset === undefined && limit === undefined), {
    message: 'format: for the whole layer only (no bbox, offset or limit)',
  })
  .refine(({ format, columns }) => !columns || format === 'csv', { message: 'columns: with format=csv only' })

const statisticList = z
  .string()
  .max(2_000)
  .transform((text) => (text === '' ? [] : text.split(',')))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[a-z]+:([A-Za-z][\w]{0,63})?$/, 'statistics: statistic:attribute, comma-separated')
          .transform((item) => ({ statistic: item.split(':')[0], attribute: item.split(':')[1] || null }))
          .pipe(z.object({ statistic: z.enum(STATISTICS), attribute: z.string().nullable() })),
      )
      .max(20),
  )

const previewSearch = z.strictObject({ city, head: count('head', 100), statistics: statisticList.optional() })

// v: the version the map last saw, so that a refreshed layer's tiles have new URLs; not read here.
const tilesSearch = z.strictObject({ city, v: z.string().regex(/^[\w:.-]{1,64}$/, 'v: a version token').optional() })

/** The body is the cached bytes themselves (gzip when the client accepts it), not a copy per request. */
type LayerReply = BufferReply & { status: 200 | 204 | 304 }

/**
 * The layer a request may read and its cached data for the city asked for. Anonymous callers see
 * public layers only (404 otherwise); a failing broker gets the last good data marked stale, else 503.
 */
async function readLayer(
  request: Request,
  rawId: string,
  search: { city?: string; bbox?: BBox; page?: LayerPage },
  /** Checks the request against the layer, once the caller may read it (so a 400 tells nothing of a layer they cannot see). */
  check: (layer: MapLayer) => void = () => undefined,
) {
  const { layer, tenant } = await readableLayer(request, rawId, search.city)
  check(layer)
  const result = await layerFeatures()
    .get(toLayerSpec(layer), { tenant, bbox: search.bbox, page: search.page })
    .catch((error: unknown) => {
      if (error instanceof NgsiError) {
        const reason = error.kind === 'unknown-tenant' ? 'the city is unknown to the context broker' : 'the context broker is unavailable'
        throw new HttpError(503, `City data cannot be loaded right now: ${reason}`, { 'Retry-After': '30' })
      }
      throw error
    })
  return { layer, result }
}

/** Columns a caller names must be the layer's (or the id): nothing else ever leaves the server. */
function checkColumns(layer: MapLayer, columns: (string | null | undefined)[]) {
  const unknown = columns.filter((column) => column && column !== 'id' && !(layer.attributes ?? []).includes(column))
  if (unknown.length > 0) throw new HttpError(400, `Not an attribute of this layer: ${unknown.map((column) => `"${column}"`).join(', ')}`)
}

/**
 * Downloads of a whole layer (CSV, GeoJSON file): a CSV re-encodes every feature, a few CPU seconds
 * for a 500,000-feature layer, so a loop of them is budgeted per client and overall.
 */
const LAYER_DOWNLOADS: LimitPolicy = { name: 'layer-downloads', perClient: 20, overall: 200, windowSeconds: 60 }

/**
 * GET /api/layers/{id}/features[?bbox=w,s,e,n | ?offset=n&limit=n][&city=tenant] → GeoJSON of the
 * layer's entities (a page of them with offset and limit: meta.total counts them all). Only the
 * layer's attributes leave the server. Failures are thrown (HttpError, ZodError) for `errorResponse`.
 * Served by src/pages/api/layers/[id]/features.ts.
 */
export async function featuresReply(request: Request, rawId: string): Promise<LayerReply> {
  const search = parseSearch(new URL(request.url), featuresSearch, ['bbox', 'city', 'offset', 'limit', 'sort', 'order', 'format', 'columns'])
  const limitHeaders = search.format ? await enforceRateLimit(request, LAYER_DOWNLOADS) : {}
  const sort = search.sort ? { column: search.sort, direction: search.order ?? 'ascending' } : undefined
  const page = search.offset !== undefined || search.limit !== undefined ? { offset: search.offset ?? 0, limit: search.limit ?? MAX_PAGE_LIMIT, sort } : undefined
  const { layer, result } = await readLayer(request, rawId, { city: search.city, bbox: search.bbox, page }, (found) => checkColumns(found, [sort?.column, ...(search.columns ?? [])]))
  // The CSV's header holds the layer's labels: an edited label is a new file.
  const display = attributeDisplayOf(layer.attributeDisplay)
  const csvTag = () => createHash('sha1').update(JSON.stringify(display)).digest('base64url').slice(0, 10)
  const answer = cachedAnswer(request, layer, search.format === 'csv' ? `${result.etag.slice(0, -1)}-csv-${csvTag()}"` : result.etag, result.state)
  const headers = { ...answer.headers, ...limitHeaders }
  if (answer.notModified) return { status: 304, headers }
  const file = (extension: string) => ({ 'Content-Disposition': `attachment; filename="${fileName(layer.name)}.${extension}"` })
  if (search.format === 'csv') {
    // Labels in the site's default language (the layer is read in it); values stay machine-readable.
    const presentation = createPresentation({ attributes: display, units: result.meta.units, locale: DEFAULT_LOCALE, timeZone: DEFAULT_TIME_ZONE })
    return csvReply(request, { ...headers, ...file('csv'), 'Content-Type': 'text/csv; charset=utf-8' }, result, search.columns ?? layer.attributes ?? [], presentation)
  }
  return gzipReply(request, { ...headers, ...(search.format ? file('geojson') : {}), 'Content-Type': 'application/geo+json; charset=utf-8' }, result.gzipped)
}

const fileName = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'layer'

/** The whole layer as CSV, written as its body is read (a 500,000-row file is never held). */
function csvReply(request: Request, headers: Record<string, string>, body: LayerBody, columns: string[], presentation: Presentation): LayerReply {
  async function* text() {
    yield csvHeader(columns, presentation)
    for await (const features of featureBatches(body)) yield csvRows(features, columns)
  }
  const rows = Readable.from(text())
  if (!/\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '')) return { status: 200, headers, body: rows }
  // Level 2, as stored bodies: on a busy host CPU costs more than the bytes saved.
  const gzip = createGzip({ level: 2 })
  // The response's own pipeline sees a failure (or a client gone) on gzip, which ends `rows` too.
  pipeline(rows, gzip, () => undefined)
  return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: gzip }
}

/**
 * GET /api/layers/{id}/preview[?city=tenant][&head=n][&statistics=average:no2,count:] → `{meta,
 * preview}`: what the page's blocks show of a layer too large to send whole (the first rows, the
 * alerting features, KPI figures), for the layer's current version. Same access, tenant and cache
 * as the features route. Served by src/pages/api/layers/[id]/preview.ts.
 */
export async function previewReply(request: Request, rawId: string): Promise<LayerReply> {
  const search = parseSearch(new URL(request.url), previewSearch, ['city', 'head', 'statistics'])
  const wanted: PreviewRequest = { headSize: search.head ?? 0, statistics: search.statistics ?? [], alertLimit: ALERT_PREVIEW_LIMIT }
  const { layer, result } = await readLayer(request, rawId, { city: search.city }, (found) => checkColumns(found, wanted.statistics.map(({ attribute }) => attribute)))
  const { headers, notModified } = cachedAnswer(request, layer, `${result.etag.slice(0, -1)}-preview"`, result.state)
  if (notModified) return { status: 304, headers }
  const preview = await layerFeatures().previewOf(result, wanted)
  // Level 2, as stored bodies: made per request, and small.
  const gzipped = gzipSync(JSON.stringify({ meta: result.meta, preview }), { level: 2 })
  return gzipReply(request, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }, gzipped)
}

/**
 * GET /api/layers/{id}/tiles/{z}/{x}/{y}[?city=tenant] → a Mapbox Vector Tile of the layer (layer
 * `features`; crowded points merged into clusters), 204 where it has none. Same access, tenant, cache
 * and errors as the features route; its ETag is the layer version's and the tile's address.
 * Served by src/pages/api/layers/[id]/tiles/[z]/[x]/[y].ts.
 */
export async function tileReply(request: Request, rawId: string, rawAddress: Record<'z' | 'x' | 'y', string>): Promise<LayerReply> {
  const search = parseSearch(new URL(request.url), tilesSearch, ['city', 'v'])
  const address = layerTileAddressSchema.parse(rawAddress)
  const { layer, result } = await readLayer(request, rawId, search)
  const etag = `${result.etag.slice(0, -1)}-${address.z}-${address.x}-${address.y}"`
  const { headers, notModified } = cachedAnswer(request, layer, etag, result.state)
  if (notModified) return { status: 304, headers }
  const tile = await layerTiles().tile(result, address)
  if (!tile) return { status: 204, headers }
  return gzipReply(request, { ...headers, 'Content-Type': 'application/vnd.mapbox-vector-tile' }, tile)
}
