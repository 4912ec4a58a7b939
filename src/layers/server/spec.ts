import { type AlertRule, alertRuleSchema } from '@/alerts'
import type { QueryRow } from '@/ngsi'
import type { MapLayer } from '@/payload-types'

import { attributeDisplayOf } from '../shared/presentation'
import type { LayerSpec } from './features'

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
    display: attributeDisplayOf(layer.attributeDisplay),
    contextUrl: layer.source?.contextUrl || undefined,
    refreshSeconds: layer.refreshSeconds,
    maxFeatures: layer.maxFeatures,
    liveThrottleSeconds: layer.liveThrottleSeconds || undefined,
  }
}
