import { LRUCache } from 'lru-cache'

import { userIsMember } from '@/access'
import { type AlertRule, alertRuleSchema } from '@/alerts'
import type { QueryRow } from '@/ngsi'
import type { MapLayer } from '@/payload-types'
import { findGlobal, payloadClient } from '@/site/queries'

import type { LayerSpec } from '../server/features'

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/
const typed = (value: string) => (NUMERIC.test(value.trim()) ? Number(value) : value)

/** The stored layer reduced to what the data path needs; rules that no longer validate are dropped. */
export function toLayerSpec(layer: MapLayer): LayerSpec {
  const alertRules = (layer.alertRules ?? []).flatMap((rule): AlertRule[] => {
    const parsed = alertRuleSchema.safeParse({ ...rule, value: typeof rule.value === 'string' ? typed(rule.value) : rule.value })
    return parsed.success ? [parsed.data] : []
  })
  const filters = (layer.source?.filters ?? []).map(
    (row): QueryRow => ({ attribute: row.attribute, operator: row.operator, value: typed(row.value) }) as QueryRow,
  )
  return {
    id: layer.id,
    updatedAt: layer.updatedAt,
    entityType: layer.entityType,
    attributes: layer.attributes ?? [],
    filters,
    alertRules,
    contextUrl: layer.source?.contextUrl || undefined,
    refreshSeconds: layer.refreshSeconds,
    maxFeatures: layer.maxFeatures,
  }
}

// Layer documents and the city list change rarely; a few seconds of memory spares a query per request.
const layerDocs = new LRUCache<string, { layer: MapLayer | null }>({ max: 500, ttl: 5_000 })
let cities: { at: number; tenants: string[] } | undefined

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

/** The same rule as the collection's read access: public layers for all, every layer for members. */
export const canReadLayer = (layer: MapLayer, user: Parameters<typeof userIsMember>[0]) => Boolean(layer.public) || userIsMember(user)

/** Tenants of the cities in SiteSettings (the only ones a caller may ask for). */
export async function cityTenants(): Promise<string[]> {
  if (cities && Date.now() - cities.at < 10_000) return cities.tenants
  const settings = await findGlobal('site-settings')
  cities = { at: Date.now(), tenants: (settings?.cities ?? []).map((city) => city.tenant) }
  return cities.tenants
}
