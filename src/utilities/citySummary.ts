import { gunzipSync } from 'node:zlib'

import type { Payload } from 'payload'

import { MAX_CITY_DATA_CHARS } from '@/ai'
import { env } from '@/env'
import type { Feature } from '@/ngsi'
import type { MapLayer } from '@/payload-types'
import { layerFeatures, toLayerSpec } from '@/utilities/layers'

const MAX_LAYERS = 12
const MAX_ALERT_MESSAGES = 5

type NumberStats = { min: number; max: number; mean: number; unit?: string }

export type LayerSummary =
  | {
      layer: string
      description?: string
      entityType: string
      count: number
      observedAt: string
      stale: boolean
      alerts: Record<string, number>
      alertMessages: string[]
      numbers: Record<string, NumberStats>
    }
  | { layer: string; available: false }

const round = (value: number) => Math.round(value * 100) / 100

function numberStats(features: Feature[], attribute: string, unit: string | undefined): NumberStats | undefined {
  const values = features.map((feature) => feature.properties[attribute]).filter((value): value is number => typeof value === 'number')
  if (values.length === 0) return undefined
  const sum = values.reduce((total, value) => total + value, 0)
  return { min: round(Math.min(...values)), max: round(Math.max(...values)), mean: round(sum / values.length), ...(unit ? { unit } : {}) }
}

async function summariseLayer(layer: MapLayer, tenant: string | undefined): Promise<LayerSummary> {
  try {
    const spec = toLayerSpec(layer)
    const result = await layerFeatures().get(spec, { tenant: layer.source?.tenant || tenant })
    const { features } = JSON.parse(gunzipSync(result.gzipped).toString('utf8')) as { features: Feature[] }
    const alerts: Record<string, number> = {}
    const alertMessages = new Set<string>()
    for (const feature of features) {
      const alert = feature.properties.alert as unknown as { level: string; message: string } | undefined
      if (!alert) continue
      alerts[alert.level] = (alerts[alert.level] ?? 0) + 1
      if (alertMessages.size < MAX_ALERT_MESSAGES) alertMessages.add(alert.message)
    }
    const numbers: Record<string, NumberStats> = {}
    for (const attribute of spec.attributes) {
      const stats = numberStats(features, attribute, result.meta.units[attribute])
      if (stats) numbers[attribute] = stats
    }
    return {
      layer: layer.name,
      ...(layer.description ? { description: layer.description } : {}),
      entityType: layer.entityType,
      count: result.meta.count,
      observedAt: result.meta.fetchedAt,
      stale: result.meta.stale,
      alerts,
      alertMessages: [...alertMessages],
      numbers,
    }
  } catch {
    // A broker that is down leaves the layer out, not the question.
    return { layer: layer.name, available: false }
  }
}

/**
 * What a citizen answer may draw on: per public layer of the city, how many entities, alert
 * counts and the range of numeric attributes — figures, not raw entities, so the prompt stays
 * small and holds nothing a citizen could not see on the map.
 */
export async function summariseCityData(payload: Payload, tenant: string | undefined): Promise<LayerSummary[]> {
  const { docs } = await payload.find({
    collection: 'map-layers',
    where: { public: { equals: true } },
    limit: MAX_LAYERS,
    depth: 0,
    overrideAccess: true,
  })
  const cityTenant = tenant || env().NGSI_LD_TENANT
  const layers = docs.filter((layer) => !layer.source?.tenant || !cityTenant || layer.source.tenant === cityTenant)
  const summaries = await Promise.all(layers.map((layer) => summariseLayer(layer, cityTenant)))
  while (summaries.length > 0 && JSON.stringify(summaries).length > MAX_CITY_DATA_CHARS) summaries.pop()
  return summaries
}
