import { gunzipSync } from 'node:zlib'

import { z } from 'zod'

import { HttpError } from '@/http/errors'
import type { BufferReply } from '@/http/pagesRoute'
import { bboxSchema, NgsiError, tenantSchema } from '@/ngsi'
import { layerFeatures } from '@/services'

import { cachedAnswer, parseSearch, readableLayer } from './layerRoute'
import { toLayerSpec } from './service'

const searchSchema = z.strictObject({
  bbox: z
    .string()
    .max(200)
    .transform((text) => text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part))))
    .pipe(bboxSchema)
    .optional(),
  city: tenantSchema.optional(),
})

/**
 * GET /api/layers/{id}/features[?bbox=w,s,e,n][&city=tenant] → GeoJSON of the layer's entities.
 * Anonymous callers see public layers only (404 otherwise); only the layer's attributes leave
 * the server; a failing broker gets the last good data marked stale, else 503. Failures are thrown
 * (HttpError, ZodError) for `errorResponse`. Served by src/pages/api/layers/[id]/features.ts.
 */
export async function featuresReply(request: Request, rawId: string): Promise<BufferReply> {
  const search = parseSearch(new URL(request.url), searchSchema, ['bbox', 'city'])
  const { layer, tenant } = await readableLayer(request, rawId, search.city)

  const result = await layerFeatures()
    .get(toLayerSpec(layer), { tenant, bbox: search.bbox })
    .catch((error: unknown) => {
      if (error instanceof NgsiError) {
        const reason = error.kind === 'unknown-tenant' ? 'the city is unknown to the context broker' : 'the context broker is unavailable'
        throw new HttpError(503, `City data cannot be loaded right now: ${reason}`, { 'Retry-After': '30' })
      }
      throw error
    })

  const { headers, notModified } = cachedAnswer(request, layer, result.etag, result.state)
  if (notModified) return { status: 304, headers }

  headers['Content-Type'] = 'application/geo+json; charset=utf-8'
  if (/\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '')) {
    return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: result.gzipped }
  }
  return { status: 200, headers, body: gunzipSync(result.gzipped) }
}
