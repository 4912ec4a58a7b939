import { gunzipSync } from 'node:zlib'

import { z } from 'zod'

import { env } from '@/env'
import { bboxSchema, NgsiError, tenantSchema } from '@/ngsi'
import { HttpError } from '@/http/errors'
import { layerFeatures } from '@/services'
import { payloadClient } from '@/utilities/queries'

import { canReadLayer, cityTenants, findLayer, toLayerSpec } from './service'

const ALLOWED_PARAMS = new Set(['bbox', 'city'])

const layerId = z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'layer id: a number or an object id')
const searchSchema = z.strictObject({
  bbox: z
    .string()
    .max(200)
    .transform((text) => text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
    .pipe(bboxSchema)
    .optional(),
  city: tenantSchema.optional(),
})

function parseSearch(url: URL) {
  const unknown = [...url.searchParams.keys()].filter((name) => !ALLOWED_PARAMS.has(name))
  if (unknown.length > 0) {
    throw new HttpError(400, `Unsupported parameter ${unknown.map((name) => `"${name.slice(0, 40)}"`).join(', ')}; use bbox and city`)
  }
  for (const name of ALLOWED_PARAMS) {
    if (url.searchParams.getAll(name).length > 1) throw new HttpError(400, `Give "${name}" once`)
  }
  return searchSchema.parse(Object.fromEntries(url.searchParams))
}

export interface FeaturesReply {
  status: 200 | 304
  headers: Record<string, string>
  /** The cached bytes themselves (gzip when the client accepts it), not a copy per request. */
  body?: Buffer
}

/**
 * GET /api/layers/{id}/features[?bbox=w,s,e,n][&city=tenant] → GeoJSON of the layer's entities.
 * Anonymous callers see public layers only (404 otherwise); only the layer's attributes leave
 * the server; a failing broker gets the last good data marked stale, else 503. Failures are thrown
 * (HttpError, ZodError) for `errorResponse`. Served by src/pages/api/layers/[id]/features.ts.
 */
export async function featuresReply(request: Request, rawId: string): Promise<FeaturesReply> {
  const id = layerId.parse(rawId)
  const url = new URL(request.url)
  const search = parseSearch(url)

  const layer = await findLayer(id)
  // Everyone may read a public layer: no need to authenticate (payload.auth also works out the
  // caller's permissions on every collection, the largest cost of a cached answer).
  const user = layer && !layer.public ? (await (await payloadClient()).auth({ headers: request.headers })).user : null
  if (!layer || !canReadLayer(layer, user)) throw new HttpError(404, 'No such map layer')

  let tenant = layer.source?.tenant || undefined
  if (!tenant && search.city) {
    if (!(await cityTenants()).includes(search.city)) throw new HttpError(400, `Unknown city "${search.city}"`)
    tenant = search.city
  }
  tenant ??= env().NGSI_LD_TENANT || undefined

  const result = await layerFeatures()
    .get(toLayerSpec(layer), { tenant, bbox: search.bbox })
    .catch((error: unknown) => {
      if (error instanceof NgsiError) {
        const reason = error.kind === 'unknown-tenant' ? 'the city is unknown to the context broker' : 'the context broker is unavailable'
        throw new HttpError(503, `City data cannot be loaded right now: ${reason}`, { 'Retry-After': '30' })
      }
      throw error
    })

  const headers: Record<string, string> = {
    ETag: result.etag,
    // no-transform: the body is gzipped once, from the cache; nothing on the way should redo it.
    'Cache-Control': layer.public
      ? `public, max-age=${Math.min(layer.refreshSeconds, 60)}, stale-while-revalidate=${layer.refreshSeconds}, no-transform`
      : 'private, no-cache, no-transform',
    Vary: 'Accept-Encoding, Cookie, Authorization',
    'X-Data-State': result.state,
  }
  const etags = request.headers.get('if-none-match')?.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  if (etags?.includes(result.etag) || etags?.includes('*')) return { status: 304, headers }

  headers['Content-Type'] = 'application/geo+json; charset=utf-8'
  if (/\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '')) {
    return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: result.gzipped }
  }
  return { status: 200, headers, body: gunzipSync(result.gzipped) }
}
