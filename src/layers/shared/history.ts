// History answers as the route sends them and the browser shows them: windows, aggregations,
// the JSON shape, and its table/CSV twin. No Node or framework imports: the browser uses it too.

import { csvCell } from './csv'
import { type AttributeDisplay, createPresentation, type Presentation } from './presentation'

/**
 * What a broker without a temporal API (Orion-LD without Mintaka) means: the route's answer (501).
 * Charts say it in the reader's language (dashboard.history.unavailable).
 */
export const HISTORY_UNAVAILABLE = "History is not available from this city's broker"

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

/** Each window's span and the period its values are aggregated over (an ISO 8601 duration for the broker). */
export const HISTORY_WINDOWS = {
  hour: { spanMs: HOUR_MS, period: 'PT5M', periodMs: 5 * MINUTE_MS },
  day: { spanMs: DAY_MS, period: 'PT1H', periodMs: HOUR_MS },
  week: { spanMs: 7 * DAY_MS, period: 'PT2H', periodMs: 2 * HOUR_MS },
  month: { spanMs: 30 * DAY_MS, period: 'PT12H', periodMs: 12 * HOUR_MS },
} as const
export type HistoryWindow = keyof typeof HISTORY_WINDOWS
export const historyWindows = Object.keys(HISTORY_WINDOWS) as HistoryWindow[]

/** avg, min, max per period; raw: every reading (one entity only). */
export const historyAggregations = ['avg', 'min', 'max', 'raw'] as const
export type HistoryAggregation = (typeof historyAggregations)[number]

export interface HistoryRequest {
  attributes: string[]
  window: HistoryWindow
  aggregation: HistoryAggregation
  /** One entity of the layer; without it, the layer's entities together. */
  entity?: string
}

export interface HistorySeries {
  attribute: string
  unit?: string
  /** One per entry of `times`; null where the period has no numeric reading. */
  values: (number | null)[]
}

/** The route's JSON body. */
export interface History {
  layer: { id: string; name: string }
  entity?: { id: string; name?: string }
  window: HistoryWindow
  aggregation: HistoryAggregation
  /** The aggregation period (ISO 8601 duration); absent for raw readings. */
  period?: string
  from: string
  to: string
  /** Who aggregated: the broker (its aggrMethods) or this server (from raw readings). */
  aggregatedBy?: 'broker' | 'server'
  /** Entities whose history went into the figures. */
  entities: number
  /** Period starts (or reading times for raw), ms since the epoch, oldest first. */
  times: number[]
  series: HistorySeries[]
  /** How the layer shows these attributes (MapLayers `attributeDisplay`), when it sets any. */
  display?: AttributeDisplay[]
}

/** How a history's attributes read: the layer's display settings it carries, its series' units, in this locale and time zone. */
export function historyPresentation(history: History, { locale, timeZone }: { locale: string; timeZone: string }): Presentation {
  const units = Object.fromEntries(history.series.flatMap((series) => (series.unit ? [[series.attribute, series.unit]] : [])))
  return createPresentation({ attributes: history.display, units, locale, timeZone })
}

/** Header and rows of the table twin: time, then one column per attribute (its label and unit). */
export function historyTable(history: History, presentation: Presentation): { header: string[]; rows: { time: number; values: (number | null)[] }[] } {
  return {
    header: ['time', ...history.series.map((series) => presentation.columnLabel(series.attribute))],
    rows: history.times.map((time, index) => ({ time, values: history.series.map((series) => series.values[index]) })),
  }
}

/** The place a history is of: its entity's name (else id), or the layer's name when it covers all its places. */
export const historyPlace = (history: History) => (history.entity ? (history.entity.name ?? history.entity.id) : history.layer.name)

/**
 * The history as CSV: ISO 8601 times (UTC), the place, one column per attribute headed by its label
 * (and unit), values as the machine wrote them (a point as decimal separator, fractions as fractions),
 * empty where there is none.
 */
export function historyToCsv(history: History, presentation: Presentation): string {
  const { header, rows } = historyTable(history, presentation)
  const place = historyPlace(history)
  const lines = [[header[0], 'place', ...header.slice(1)].map(csvCell).join(',')]
  for (const row of rows) lines.push([new Date(row.time).toISOString(), place, ...row.values].map(csvCell).join(','))
  return `${lines.join('\r\n')}\r\n`
}

/** The path of an entity's full history view (src/app/(frontend)/layers/[id]/history). */
export function entityHistoryPath(layerId: string, entity: string, attributes: string[], city?: string): string {
  const search = new URLSearchParams({ entity, attributes: attributes.join(',') })
  if (city) search.set('city', city)
  return `/layers/${encodeURIComponent(layerId)}/history?${search}`
}
