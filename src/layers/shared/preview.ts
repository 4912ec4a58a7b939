// A layer's preview (what a prerendered page carries of it) and the keys the dashboard files
// layer reads and KPI numbers under. No Node or framework imports: the browser uses it too.
import { type AlertLevel, bySeverity } from '@/alerts/levels'
import type { Feature } from '@/ngsi'

import { alertLevelOf } from './alerts'
import { featureName } from './format'
import { createMeasurer, type Statistic } from './statistics'

/** Alerting features a page's preview carries at most per layer: its alerts panel lists them. */
export const ALERT_PREVIEW_LIMIT = 50

/** One layer read for one city: the key of dashboard snapshots and subscriptions. */
export const snapshotKey = (layerId: string, city: string) => `${layerId}|${city}`

/** A KPI block's number, as the key of a layer preview's statistics. */
export const statisticKey = (statistic: Statistic, attribute?: string | null) => `${statistic}:${attribute ?? ''}`

/**
 * What a prerendered page carries of a layer: what its blocks show before the browser has the
 * whole set (the first table page, the alerts, the KPI numbers), so the HTML stays small however
 * large the layer is.
 */
export type LayerPreview = {
  total: number
  /** The first features in the layer's order: the first page of its tables. */
  head: Feature[]
  /** Features that carry an alert, most severe first. */
  alerting: Feature[]
  /** Keyed by `statisticKey`; null when no feature has a value to aggregate. */
  statistics: Record<string, number | null>
  /** Names of the features holding a min or max, keyed by `statisticKey`. */
  holders: Record<string, string>
}

export type PreviewRequest = {
  headSize: number
  statistics: { statistic: Statistic; attribute?: string | null }[]
  alertLimit: number
}

export function previewOf(features: Feature[], request: PreviewRequest): LayerPreview {
  const builder = createPreviewBuilder(request)
  for (const feature of features) builder.add(feature)
  return builder.result()
}

/** `previewOf`, fed one feature at a time: keeps the head, the alert candidates and running statistics only. */
export function createPreviewBuilder(request: PreviewRequest) {
  const head: Feature[] = []
  // Per level, the first `alertLimit` in layer order: concatenated by severity, that is the stable sort's prefix.
  const alertingByLevel = new Map<AlertLevel, Feature[]>()
  const measurers = request.statistics.map(({ statistic, attribute }) => ({
    key: statisticKey(statistic, attribute),
    measurer: createMeasurer(statistic, attribute ?? undefined),
  }))
  let total = 0
  return {
    add: (feature: Feature) => {
      total++
      if (head.length < request.headSize) head.push(feature)
      const level = alertLevelOf(feature)
      if (level) {
        const list = alertingByLevel.get(level) ?? []
        if (list.length < request.alertLimit) list.push(feature)
        alertingByLevel.set(level, list)
      }
      for (const { measurer } of measurers) measurer.add(feature)
    },
    result: (): LayerPreview => {
      const alerting = [...alertingByLevel]
        .sort(([a], [b]) => bySeverity(a, b))
        .flatMap(([, list]) => list)
        .slice(0, request.alertLimit)
      const statistics: LayerPreview['statistics'] = {}
      const holders: LayerPreview['holders'] = {}
      for (const { key, measurer } of measurers) {
        const { value, holder } = measurer.result()
        statistics[key] = value ?? null
        if (holder) holders[key] = featureName(holder)
      }
      return { total, head, alerting, statistics, holders }
    },
  }
}
