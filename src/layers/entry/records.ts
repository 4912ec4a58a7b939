import 'server-only'

import { LRUCache } from 'lru-cache'

import type { MapLayer } from '@/payload-types'
import { payloadClient } from '@/site/payload'

// Layer documents change rarely; a few seconds of memory spares a query per request.
const layerDocs = new LRUCache<string, { layer: MapLayer | null }>({ max: 500, ttl: 5_000 })

/** A map layer document as stored (every field: the server filters what each reader sees). */
export async function findLayer(id: string): Promise<MapLayer | null> {
  const known = layerDocs.get(id)
  if (known) return known.layer
  const payload = await payloadClient()
  const { docs } = await payload.find({
    collection: 'map-layers',
    where: { id: { equals: id } },
    limit: 1,
    depth: 0,
    pagination: false,
    overrideAccess: true,
  })
  const layer = docs[0] ?? null
  layerDocs.set(id, { layer })
  return layer
}
