import 'server-only'

import { z } from 'zod'

import { HttpError } from '@/server/errors'
import type { BufferReply } from '@/server/pagesRoute'
import { attributeNameSchema, NgsiError } from '@/ngsi'
import { layerHistory } from './services'

import { HistoryError, historyAggregations, historyWindows } from '../server/history'
import { HISTORY_UNAVAILABLE } from '../shared/history'
import { attributeDisplayOf } from '../shared/presentation'
import { cachedAnswer, gzipReply, parseSearch, readableLayer } from './reply'
import { toLayerSpec } from '../server/spec'
import { citySchema } from './tenant'

const searchSchema = z
  .strictObject({
    attributes: z
      .string()
      .max(600)
      .transform((text) => [...new Set(text.split(',').map((name) => name.trim()))])
      .pipe(z.array(attributeNameSchema).min(1).max(8)),
    window: z.enum(historyWindows, { error: `window: one of ${historyWindows.join(', ')}` }).default('day'),
    aggregation: z.enum(historyAggregations, { error: `aggregation: one of ${historyAggregations.join(', ')}` }).default('avg'),
    entity: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9+.-]*:[^\s,<>"]{1,1024}$/, 'entity: an entity id (a URI)')
      .optional(),
    city: citySchema.optional(),
  })
  .refine((search) => search.aggregation !== 'raw' || search.entity, { message: 'aggregation=raw needs an entity', path: ['aggregation'] })

/**
 * GET /api/layers/{id}/history?attributes=a,b[&window=hour|day|week|month][&aggregation=avg|min|max|raw]
 * [&entity=urn:…][&city=tenant] → the layer's history as JSON (`History`), with the access rules,
 * tenant, cache and ETag/304 of the features route. A broker without a temporal API gives 501.
 * Served by src/pages/api/layers/[id]/history.ts.
 */
export async function historyReply(request: Request, rawId: string): Promise<BufferReply> {
  const search = parseSearch(new URL(request.url), searchSchema, ['attributes', 'window', 'aggregation', 'entity', 'city'])
  const { layer, tenant } = await readableLayer(request, rawId, search.city)
  const known = layer.attributes ?? []
  const unknown = search.attributes.filter((name) => !known.includes(name))
  if (unknown.length) throw new HttpError(400, `Unknown attribute "${unknown[0]}": this layer has ${known.join(', ') || 'none'}`)

  const result = await layerHistory()
    .get(toLayerSpec(layer), layer.name, search, { tenant, display: attributeDisplayOf(layer.attributeDisplay) })
    .catch((error: unknown) => {
      if (error instanceof HistoryError) throw new HttpError(404, error.message)
      if (error instanceof NgsiError) {
        if (error.kind === 'not-supported') throw new HttpError(501, HISTORY_UNAVAILABLE)
        const reason = error.kind === 'unknown-tenant' ? 'the city is unknown to the context broker' : 'the context broker is unavailable'
        throw new HttpError(503, `History cannot be loaded right now: ${reason}`, { 'Retry-After': '30' })
      }
      throw error
    })

  const { headers, notModified } = cachedAnswer(request, layer, result.etag, result.state)
  if (notModified) return { status: 304, headers }
  return gzipReply(request, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }, result.gzipped)
}
