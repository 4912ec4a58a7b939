/**
 * Pure helpers over a layer's GeoJSON features for the dashboard blocks: statistics, sorting,
 * CSV rows and display text. No framework imports: the browser and tests use them alike.
 */
import { type AlertLevel, bySeverity, isAlertLevel } from '@/alerts/levels'
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

/** A feature's display name: its `name` attribute when it is text, else its id. */
export const featureName = (feature: Feature): string =>
  typeof feature.properties.name === 'string' && feature.properties.name ? feature.properties.name : String(feature.id)

export type Trend = { direction: 'up' | 'down' | 'flat'; delta: number }

/** Change from the previous value; changes under 0.05 % of the value count as flat. */
export function trendOf(current: number | undefined, previous: number | undefined): Trend | undefined {
  if (current === undefined || previous === undefined) return undefined
  const delta = current - previous
  const tolerance = Math.max(Math.abs(previous), 1) * 0.0005
  return { direction: Math.abs(delta) <= tolerance ? 'flat' : delta > 0 ? 'up' : 'down', delta }
}

export function formatNumber(value: number, locale = 'en'): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)
}

/** A cell's text: numbers formatted, objects as JSON, missing as an empty string. */
export function displayValue(value: unknown, unit?: string, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return ''
  if (typeof value === 'number') return unit ? `${formatNumber(value, locale)} ${unit}` : formatNumber(value, locale)
  if (typeof value === 'object') return JSON.stringify(value)
  return unit ? `${String(value)} ${unit}` : String(value)
}

/** "observed 5 minutes ago" in the page's language; undefined for an unreadable time. */
export function observedAgo(observedAt: unknown, now: number, locale = 'en'): string | undefined {
  if (typeof observedAt !== 'string') return undefined
  const at = Date.parse(observedAt)
  if (Number.isNaN(at)) return undefined
  const seconds = Math.round((at - now) / 1000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ]
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit)
  }
  return format.format(seconds, 'second')
}

export type SortDirection = 'ascending' | 'descending'

/** A table cell's value: the feature's id or one of its properties. */
export const cellOf = (feature: Feature, column: string): unknown => (column === 'id' ? feature.id : feature.properties[column])

const isMissing = (value: unknown) => value === null || value === undefined || value === ''

/** The table's order of two cells: numbers before text, missing values last whatever the direction. */
export function compareCells(left: unknown, right: unknown, direction: SortDirection): number {
  const sign = direction === 'ascending' ? 1 : -1
  if (isMissing(left) || isMissing(right)) return Number(isMissing(left)) - Number(isMissing(right))
  if (typeof left === 'number' && typeof right === 'number') return (left - right) * sign
  if (typeof left === 'number') return -1
  if (typeof right === 'number') return 1
  return String(left).localeCompare(String(right), undefined, { numeric: true }) * sign
}

/** Stable: equal cells keep the layer's order. */
export function sortFeatures(features: Feature[], column: string, direction: SortDirection): Feature[] {
  return [...features].sort((a, b) => compareCells(cellOf(a, column), cellOf(b, column), direction))
}

// Spreadsheet apps run cells that start with these as formulas (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/

/** One RFC 4180 CSV cell; text that a spreadsheet would run as a formula is quoted with '. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

// RFC 4180 CSV with id, the columns, longitude and latitude (point geometries), written a batch
// of rows at a time: the server streams a large layer's rows as it reads them.

/** The CSV's first line. */
export const csvHeader = (columns: string[]): string => ['id', ...columns, 'longitude', 'latitude'].map(csvCell).join(',') + '\r\n'

/** The CSV lines of these features, each ended by CRLF. */
export function csvRows(features: Feature[], columns: string[]): string {
  let text = ''
  for (const feature of features) {
    const point = feature.geometry.type === 'Point' ? (feature.geometry.coordinates as number[]) : []
    text += [feature.id, ...columns.map((column) => feature.properties[column]), point[0], point[1]].map(csvCell).join(',') + '\r\n'
  }
  return text
}

const alertLevelOf = (feature: Feature) => {
  const alert = feature.properties.alert as { level?: unknown } | undefined
  return alert && typeof alert === 'object' && isAlertLevel(alert.level) ? alert.level : undefined
}

export type LayerAlert = { featureId: string; level: AlertLevel; message: string; name?: string }

/** The alerts carried by features (set by the server's rule engine), most severe first. */
export function alertsOf(features: Feature[]): LayerAlert[] {
  const alerts: LayerAlert[] = []
  for (const feature of features) {
    const level = alertLevelOf(feature)
    if (!level) continue
    const { message } = feature.properties.alert as { message?: unknown }
    const name = feature.properties.name
    alerts.push({
      featureId: String(feature.id),
      level,
      message: typeof message === 'string' ? message : '',
      name: typeof name === 'string' ? name : undefined,
    })
  }
  return alerts.sort((a, b) => bySeverity(a.level, b.level))
}

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
