// Temporal API: three representations (instances, temporalValues, aggregated) become one
// time-ordered series per attribute; Stellio's 206 + Content-Range windows and Mintaka's
// pageAnchor paging are followed until the requested history is complete.

import { z } from 'zod'

import { NgsiError } from './errors'
import type { JsonResponse } from './http'
import { shortName } from './iri'
import { isAttributeObject, normalizeAttribute, pickLanguage, plainValue, toIsoDate, type NormalizeOptions, type PlainValue } from './normalize'
import { ATTRIBUTE_NAME } from './names'

export const aggregationMethods = ['totalCount', 'distinctCount', 'sum', 'avg', 'min', 'max', 'stddev', 'sumsq'] as const

const isoDateTime = z.string().refine((text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)), 'an ISO 8601 date-time')

export const temporalQuerySchema = z
  .strictObject({
    attrs: z.array(z.string().regex(ATTRIBUTE_NAME)).min(1).max(50).optional(),
    lastN: z.number().int().min(1).max(100_000).optional(),
    timerel: z.enum(['before', 'after', 'between']).optional(),
    timeAt: isoDateTime.optional(),
    endTimeAt: isoDateTime.optional(),
    aggrMethods: z.array(z.enum(aggregationMethods)).min(1).optional(),
    aggrPeriodDuration: z
      .string()
      .regex(/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/, 'an ISO 8601 duration such as PT1H')
      .optional(),
  })
  .refine((query) => !query.timerel || query.timeAt, 'timerel needs timeAt')
  .refine((query) => query.timerel !== 'between' || query.endTimeAt, 'timerel=between needs endTimeAt')
  .refine((query) => query.timerel || !query.timeAt, 'timeAt needs timerel')

export type TemporalQuery = z.infer<typeof temporalQuerySchema>

export interface TemporalPoint {
  value: PlainValue
  observedAt: string
  /** End of the period of an aggregated value. */
  endAt?: string
  /** Aggregation method (avg, max…) of an aggregated value. */
  method?: string
  unitCode?: string
  unit?: string
  datasetId?: string
}

/** Attribute name → its points, oldest first. */
export type TemporalSeries = Record<string, TemporalPoint[]>

/** One entity of a temporal entity query. */
export interface TemporalEntity {
  id: string
  series: TemporalSeries
}

const VALUE_LISTS = ['values', 'objects', 'languageMaps', 'vocabs', 'jsons', 'valueLists', 'objectLists'] as const

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value)

export function validateTemporalQuery(query: TemporalQuery): TemporalQuery {
  const parsed = temporalQuerySchema.safeParse(query)
  if (!parsed.success) throw new NgsiError('bad-request', `Invalid temporal query: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'} ${issue.message}`).join('; ')}`)
  return parsed.data
}

export function temporalParams(query: TemporalQuery): Record<string, string | string[] | number | undefined> {
  const iso = (text?: string) => (text === undefined ? undefined : new Date(text).toISOString())
  return {
    attrs: query.attrs,
    lastN: query.lastN,
    timerel: query.timerel,
    timeAt: iso(query.timeAt),
    endTimeAt: iso(query.endTimeAt),
    options: query.aggrMethods ? 'aggregatedValues' : undefined,
    aggrMethods: query.aggrMethods,
    aggrPeriodDuration: query.aggrPeriodDuration,
  }
}

/** `[value, time]` of temporalValues: the value may be wrapped as {languageMap}, {vocab}, {object}… */
function simplifiedValue(raw: unknown, options: NormalizeOptions): PlainValue {
  if (!isObject(raw)) return plainValue(raw)
  if (isObject(raw.languageMap)) return pickLanguage(raw.languageMap, options.language)
  const key = ['vocab', 'json', 'valueList', 'objectList', 'object', 'value'].find((candidate) => candidate in raw)
  if (key === 'json') return raw.json as PlainValue
  return plainValue(key ? raw[key] : raw)
}

function attributePoints(raw: unknown, options: NormalizeOptions): TemporalPoint[] {
  if (Array.isArray(raw)) return raw.flatMap((item) => attributePoints(item, options))
  if (!isObject(raw)) return []
  const base: Omit<TemporalPoint, 'value' | 'observedAt'> = {}
  if (typeof raw.datasetId === 'string') base.datasetId = raw.datasetId
  const listKey = VALUE_LISTS.find((key) => Array.isArray(raw[key]))
  if (listKey) {
    return (raw[listKey] as unknown[]).flatMap((entry) => {
      const observedAt = Array.isArray(entry) ? toIsoDate(entry[1]) : undefined
      return observedAt && Array.isArray(entry) ? [{ ...base, value: simplifiedValue(entry[0], options), observedAt }] : []
    })
  }
  const methods = aggregationMethods.filter((method) => Array.isArray(raw[method]))
  if (methods.length) {
    return methods.flatMap((method) =>
      (raw[method] as unknown[]).flatMap((entry) => {
        if (!Array.isArray(entry)) return []
        const [value, start, end] = entry
        const observedAt = toIsoDate(start)
        const endAt = toIsoDate(end)
        return observedAt ? [{ ...base, value: plainValue(value), observedAt, method, ...(endAt && { endAt }) }] : []
      }),
    )
  }
  if (!isAttributeObject(raw)) return []
  const instance = normalizeAttribute(raw, options)
  // Without observedAt (timeproperty=modifiedAt), the instance's system time places it.
  const observedAt = instance.observedAt ?? instance.modifiedAt ?? instance.createdAt
  if (!observedAt) return []
  const point: TemporalPoint = { ...base, value: instance.value, observedAt }
  if (instance.unitCode) point.unitCode = instance.unitCode
  if (instance.unit) point.unit = instance.unit
  return [point]
}

const pointKey = (point: TemporalPoint) => `${point.observedAt}|${point.endAt ?? ''}|${point.method ?? ''}|${point.datasetId ?? ''}`

/** Adds `page` to `series`: de-duplicated (pages may overlap at their edges) and sorted oldest first. */
export function mergeSeries(series: TemporalSeries, page: TemporalSeries): TemporalSeries {
  for (const [name, points] of Object.entries(page)) {
    const byKey = new Map((series[name] ?? []).map((point) => [pointKey(point), point]))
    for (const point of points) byKey.set(pointKey(point), point)
    series[name] = [...byKey.values()].sort((a, b) => (a.observedAt < b.observedAt ? -1 : a.observedAt > b.observedAt ? 1 : 0))
  }
  return series
}

/** One entity's temporal representation (an array answer is searched for `id`). */
export function normalizeTemporal(raw: unknown, options: NormalizeOptions & { id?: string } = {}): TemporalSeries {
  const entity = Array.isArray(raw) ? (raw.find((item) => isObject(item) && item.id === options.id) ?? raw[0]) : raw
  if (!isObject(entity)) throw new NgsiError('invalid-response', 'The temporal answer is not an entity')
  const series: TemporalSeries = {}
  for (const [key, value] of Object.entries(entity)) {
    if (key === 'id' || key === 'type' || key === '@context' || key === 'createdAt' || key === 'modifiedAt') continue
    const name = shortName(key, options.contextTerms)
    mergeSeries(series, { [name in series ? key : name]: attributePoints(value, options) })
  }
  return series
}

/** `date-time 2024-01-01T00:00:00Z-2024-01-07T00:00:00Z/100`: the dates themselves contain '-'. */
export function parseContentRange(header: string | null): { start: string; end: string } | undefined {
  const match = /^\s*date-time\s+(\d{4}-\d{2}-\d{2}T[^/]*?)-(\d{4}-\d{2}-\d{2}T[^/]*?)(?:\/.*)?$/.exec(header ?? '')
  const first = match && toIsoDate(match[1])
  const second = match && toIsoDate(match[2])
  if (!first || !second) return undefined
  return first <= second ? { start: first, end: second } : { start: second, end: first }
}

/**
 * The request for the rest of a partial (206) answer. With lastN the broker kept the newest
 * instances, so continue before the range; otherwise it kept the oldest: continue after it.
 */
export function remainingWindow(query: TemporalQuery, range: { start: string; end: string }, received: number): TemporalQuery | undefined {
  if (query.lastN !== undefined) {
    const lastN = query.lastN - received
    if (lastN <= 0 || received === 0) return undefined
    const lower = query.timerel === 'after' || query.timerel === 'between' ? query.timeAt : undefined
    return lower ? { ...query, lastN, timerel: 'between', timeAt: lower, endTimeAt: range.start } : { ...query, lastN, timerel: 'before', timeAt: range.start, endTimeAt: undefined }
  }
  const upper = query.timerel === 'before' ? query.timeAt : query.timerel === 'between' ? query.endTimeAt : undefined
  if (query.timeAt !== undefined && query.timerel !== 'before' && Date.parse(range.end) <= Date.parse(query.timeAt)) return undefined
  return upper ? { ...query, timerel: 'between', timeAt: range.end, endTimeAt: upper } : { ...query, timerel: 'after', timeAt: range.end, endTimeAt: undefined }
}

const MAX_TEMPORAL_PAGES = 100

/** Loads every page of one entity's history; `load` performs one GET with the given parameters. */
export async function fetchTemporal(
  load: (params: Record<string, string | string[] | number | undefined>) => Promise<JsonResponse>,
  query: TemporalQuery,
  options: NormalizeOptions & { id: string },
): Promise<TemporalSeries> {
  const series: TemporalSeries = {}
  let window: TemporalQuery | undefined = validateTemporalQuery(query)
  let anchor: { pageAnchor: string; pageSize?: string } | undefined
  for (let page = 0; window && page < MAX_TEMPORAL_PAGES; page++) {
    const response = await load({ ...temporalParams(window), ...anchor })
    const part = normalizeTemporal(response.body, options)
    mergeSeries(series, part)
    // Mintaka: an opaque anchor for the next page.
    const nextAnchor = response.headers.get('Next-Page')
    if (nextAnchor && nextAnchor !== anchor?.pageAnchor) {
      anchor = { pageAnchor: nextAnchor, pageSize: response.headers.get('Page-Size') ?? undefined }
      continue
    }
    const range = response.status === 206 ? parseContentRange(response.headers.get('Content-Range')) : undefined
    const received = Math.max(0, ...Object.values(part).map((points) => points.length))
    window = range && received > 0 ? remainingWindow(window, range, received) : undefined
    anchor = undefined
  }
  return series
}
