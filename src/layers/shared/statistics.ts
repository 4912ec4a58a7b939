// The numbers a KPI shows over a layer's features: a statistic (and for a min or max, who holds
// it) and its trend. No Node or framework imports: the browser and tests use it alike.
import type { Feature } from '@/ngsi'

export const STATISTICS = ['count', 'average', 'min', 'max', 'sum'] as const
export type Statistic = (typeof STATISTICS)[number]

const numeric = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

/** One number over the features; `undefined` when no feature has a numeric value to aggregate. */
export const computeStatistic = (features: Feature[], statistic: Statistic, attribute?: string): number | undefined =>
  measure(features, statistic, attribute).value

/** A statistic and, for a min or max, the feature that holds it: one pass over the features. */
export function measure(features: Feature[], statistic: Statistic, attribute?: string): { value?: number; holder?: Feature } {
  const measurer = createMeasurer(statistic, attribute)
  for (const feature of features) measurer.add(feature)
  return measurer.result()
}

/** The feature that holds a min or max (the first, on a tie): a KPI says where the extreme is. */
export function extremeHolder(features: Feature[], statistic: Statistic, attribute?: string): Feature | undefined {
  if ((statistic !== 'min' && statistic !== 'max') || !attribute) return undefined
  return measure(features, statistic, attribute).holder
}

/** `measure`, fed one feature at a time (a layer read from its body is never held whole). */
export function createMeasurer(statistic: Statistic, attribute?: string) {
  let count = 0
  let total = 0
  let extreme: number | undefined
  let holder: Feature | undefined
  const extremes = (statistic === 'min' || statistic === 'max') && Boolean(attribute)
  return {
    add(feature: Feature) {
      if (statistic === 'count') {
        count++
        return
      }
      const value = numeric(attribute ? feature.properties[attribute] : undefined)
      if (value === undefined) return
      count++
      total += value
      if (extremes && (extreme === undefined || (statistic === 'max' ? value > extreme : value < extreme))) {
        extreme = value
        holder = feature
      }
    },
    result(): { value?: number; holder?: Feature } {
      if (statistic === 'count') return { value: count }
      if (statistic === 'min' || statistic === 'max') return holder ? { value: extreme, holder } : {}
      if (count === 0) return {}
      return { value: statistic === 'sum' ? total : total / count }
    },
  }
}

export type Trend = { direction: 'up' | 'down' | 'flat'; delta: number }

/** Change from the previous value; changes under 0.05 % of the value count as flat. */
export function trendOf(current: number | undefined, previous: number | undefined): Trend | undefined {
  if (current === undefined || previous === undefined) return undefined
  const delta = current - previous
  const tolerance = Math.max(Math.abs(previous), 1) * 0.0005
  return { direction: Math.abs(delta) <= tolerance ? 'flat' : delta > 0 ? 'up' : 'down', delta }
}
