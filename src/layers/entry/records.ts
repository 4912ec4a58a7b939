import { LRUCache } from 'lru-cache'
import type { Payload } from 'payload'

import type { MapLayer } from '@/payload-types'

// Layer documents change rarely; a few seconds of memory spares a query per request (and a burst
// of notifications for one layer reads its document once). Not 'server-only': the live layers,
// which Payload's hooks also reach, read through it.
const layerDocs = new LRUCache<string, { layer: MapLayer | null }>({ max: 500, ttl: 5_000 })

/** A map layer document as stored, read through `payload` (every field: the server filters what each reader sees). */
export async function storedLayer(payload: Payload, id: string): Promise<MapLayer | null> {
  const known = layerDocs.get(id)
  if (known) return known.layer
  const { docs } = await payload.find({ collection: 'map-layers', where: { id: { equals: id } }, limit: 1, depth: 0, pagination: false, overrideAccess: true })
  const layer = docs[0] ?? null
  layerDocs.set(id, { layer })
  return layer
}
