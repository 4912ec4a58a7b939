import type { Payload } from 'payload'

import { readableLayers } from '@/access'
import { env } from '@/env'
import type { MapLayer } from '@/payload-types'
import { layerFeatures } from './services'

import { toLayerSpec } from '../server/spec'
import { alertOf } from '../shared/alerts'
import { cityOfRead } from '../shared/city'

const MAX_LAYERS = 12
const MAX_ALERT_MESSAGES = 5

/** `label` and `format` when the layer sets how the attribute is shown (a `percent` is a fraction 0–1). */
type NumberStats = { min: number; max: number; mean: number; unit?: string; label?: string; format?: string }

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

/** Min, max and mean of an attribute's numbers, fed one value at a time. */
function createRange() {
  let count = 0
  let sum = 0
  let min = Infinity
  let max = -Infinity
  return {
    add(value: unknown) {
      if (typeof value !== 'number') return
      count++
      sum += value
      min = Math.min(min, value)
      max = Math.max(max, value)
    },
    stats: (unit: string | undefined): NumberStats | undefined =>
      count === 0 ? undefined : { min: round(min), max: round(max), mean: round(sum / count), ...(unit ? { unit } : {}) },
  }
}

async function summariseLayer(layer: MapLayer, city: string | undefined): Promise<LayerSummary> {
  try {
    const spec = toLayerSpec(layer)
    const service = layerFeatures()
    const result = await service.get(spec, { tenant: cityOfRead(layer.source?.tenant, city) })
    const alerts: Record<string, number> = {}
    const alertMessages = new Set<string>()
    const ranges = spec.attributes.map((attribute) => ({ attribute, range: createRange() }))
    // Feature by feature: a large layer is never parsed whole for a question.
    await service.eachFeature(result, (feature) => {
      for (const { attribute, range } of ranges) range.add(feature.properties[attribute])
      const alert = alertOf(feature)
      if (!alert) return
      alerts[alert.level] = (alerts[alert.level] ?? 0) + 1
      if (alertMessages.size < MAX_ALERT_MESSAGES) alertMessages.add(alert.message)
    })
    const numbers: Record<string, NumberStats> = {}
    const shown = new Map((spec.display ?? []).map((row) => [row.attribute, row]))
    for (const { attribute, range } of ranges) {
      const row = shown.get(attribute)
      const stats = range.stats(row?.unit || result.meta.units[attribute])
      if (stats) numbers[attribute] = { ...stats, ...(row?.label ? { label: row.label } : {}), ...(row?.format ? { format: row.format } : {}) }
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
 * small and holds nothing a citizen could not see on the map. Layers are dropped from the end
 * until the summary's JSON fits in `maxChars` (what the answering task accepts).
 */
export async function summariseCityData(payload: Payload, city: string | undefined, maxChars: number): Promise<LayerSummary[]> {
  const { docs } = await payload.find({
    collection: 'map-layers',
    where: readableLayers('public'),
    limit: MAX_LAYERS,
    depth: 0,
    overrideAccess: true,
  })
  const asked = city || env().NGSI_LD_TENANT
  // A layer bound to another city says nothing about this one.
  const layers = docs.filter((layer) => !asked || cityOfRead(layer.source?.tenant, asked) === asked)
  const summaries = await Promise.all(layers.map((layer) => summariseLayer(layer, asked)))
  while (summaries.length > 0 && JSON.stringify(summaries).length > maxChars) summaries.pop()
  return summaries
}
