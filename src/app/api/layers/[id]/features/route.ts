import { gunzipSync, gzipSync } from 'node:zlib'

import { z } from 'zod'

import { env } from '@/env'
import { TENANT_NAME } from '@/fields/patterns'
import { bboxSchema, NgsiError } from '@/ngsi'
import { HttpError, withErrorHandling } from '@/utilities/httpErrors'
import { canReadLayer, cityTenants, findLayer, layerFeatures, toLayerSpec } from '@/utilities/layers'
import { payloadClient } from '@/utilities/queries'

export const dynamic = 'force-dynamic'

const ALLOWED_PARAMS = new Set(['bbox', 'city'])

const layerId = z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'layer id: a number or an object id')
const searchSchema = z.strictObject({
  bbox: z
    .string()
    .max(200)
    .transform((text) => text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
    .pipe(bboxSchema)
    .optional(),
  city: z.string().regex(TENANT_NAME, 'city: letters, digits, - and _ only').optional(),
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

/**
 * Next drops a Content-Encoding header set by a route handler, so next.config.mjs declares
 * `Content-Encoding: gzip` on this path for every client whose Accept-Encoding names gzip, and
 * the route gzips every body it sends them (the cached layer body is gzipped already).
 */
const GZIP_ACCEPTED = /gzip/i
const acceptsGzip = (request: Request) => GZIP_ACCEPTED.test(request.headers.get('accept-encoding') ?? '')

/**
 * GET /api/layers/{id}/features[?bbox=w,s,e,n][&city=tenant] → GeoJSON of the layer's entities.
 * Anonymous callers see public layers only (404 otherwise); only the layer's attributes leave
 * the server; a failing broker gets the last good data marked stale, else 503.
 */
const answer = withErrorHandling(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = layerId.parse((await params).id)
  const url = new URL(request.url)
  const search = parseSearch(url)

  const payload = await payloadClient()
  const [{ user }, layer] = await Promise.all([payload.auth({ headers: request.headers }), findLayer(id)])
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
    // no-transform: the body is gzipped once, from the cache; Next's compression must not do it again.
    'Cache-Control': layer.public
      ? `public, max-age=${Math.min(layer.refreshSeconds, 60)}, stale-while-revalidate=${layer.refreshSeconds}, no-transform`
      : 'private, no-cache, no-transform',
    Vary: 'Accept-Encoding, Cookie, Authorization',
    'X-Data-State': result.state,
  }
  const etags = request.headers.get('if-none-match')?.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  if (etags?.includes(result.etag) || etags?.includes('*')) return new Response(null, { status: 304, headers })

  headers['Content-Type'] = 'application/geo+json; charset=utf-8'
  return new Response(new Uint8Array(acceptsGzip(request) ? result.gzipped : gunzipSync(result.gzipped)), { headers })
})

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const response = await answer(request, context)
  // Data (200) is gzipped already and 304 has no body; an error answer's body is gzipped here.
  if (!acceptsGzip(request) || response.status === 200 || !response.body) return response
  return new Response(new Uint8Array(gzipSync(Buffer.from(await response.arrayBuffer()))), { status: response.status, headers: response.headers })
}
