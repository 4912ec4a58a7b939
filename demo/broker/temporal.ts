// Temporal API: history is not stored but recomputed from the same time function as the
// live readings, one instance every 15 minutes over the last 7 days. The aggregated
// representation (ETSI GS CIM 009 4.5.19, options=aggregatedValues) is computed from them.

import { decodeSegment, pageMetadata, type ApiContext, type ApiResponse } from './api-support'
import { HISTORY_RETENTION_MS, HISTORY_STEP_MS, historyTimes, observedValues, typeModels, type StaticEntity } from './data'
import { assertNotTooBroad, listParam, parseEntityFilter, parsePaging, selectEntities } from './entity-query'
import { badRequest, BrokerError, errorTypes, notFound, notSupported } from './problems'

/** Above this many instances in one response (~75 MB of JSON) the broker refuses rather than run out of memory. */
const MAX_INSTANCES_PER_RESPONSE = 500_000
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

interface TemporalWindow {
  fromMs: number
  toMs: number
  /** Where aggregation periods start: the requested timeAt, even before the retained history. */
  originMs: number
  lastN?: number
}

export const AGGREGATION_METHODS = ['totalCount', 'distinctCount', 'sum', 'avg', 'min', 'max', 'stddev', 'sumsq'] as const
type AggregationMethod = (typeof AGGREGATION_METHODS)[number]

interface Aggregation {
  methods: AggregationMethod[]
  /** 0: one period over the whole window (the spec's default). */
  periodMs: number
}

interface TemporalRequest {
  window: TemporalWindow
  attrs?: Set<string>
  temporalValues: boolean
  aggregation?: Aggregation
  /** Stellio's cap on instances per attribute. */
  instanceLimit?: number
}

export function handleTemporal(context: ApiContext, rest: string[]): ApiResponse {
  if (!context.temporalEnabled) {
    throw notSupported('The temporal API is not served by Orion-LD: it needs a separate Mintaka service')
  }
  const [collection, ...idParts] = rest
  if (collection !== 'entities') throw notFound(`No service for ${context.route}`, 'Service Not Found')
  const request = parseTemporalRequest(context)
  const id = idParts.length ? decodeSegment(idParts.join('/')) : ''
  if (id) {
    const entity = context.tenant.byId.get(id)
    if (!entity) throw notFound(id, 'Entity Not Found')
    const { body, truncated } = temporalEntity(entity, request)
    return withRange({ status: 200, body }, truncated, request)
  }
  const filter = parseEntityFilter(context.params)
  assertNotTooBroad(filter)
  const paging = parsePaging(context.params, context.flavor)
  const selected = selectEntities(context.tenant, filter, context.nowMs)
  const page = selected.slice(paging.offset, paging.offset + paging.limit)
  assertAffordable(page, request)
  const rendered = page.map((entity) => temporalEntity(entity, request))
  const response: ApiResponse = { status: 200, body: rendered.map((item) => item.body), ...pageMetadata(context, selected.length, paging) }
  return withRange(response, rendered.find((item) => item.truncated)?.truncated, request)
}

function parseTemporalRequest(context: ApiContext): TemporalRequest {
  const { params } = context
  const options = new Set([...(listParam(params.get('options')) ?? []), ...(listParam(params.get('format')) ?? [])])
  const attrs = listParam(params.get('attrs'))
  const aggregated = options.has('aggregatedValues')
  if (aggregated && !context.temporalAggregation) throw notSupported('This broker does not compute aggregated temporal representations')
  return {
    window: parseWindow(params, context.nowMs),
    attrs: attrs && new Set(attrs),
    temporalValues: options.has('temporalValues'),
    aggregation: aggregated ? parseAggregation(params) : undefined,
    instanceLimit: context.flavor.temporalInstanceLimit,
  }
}

function parseAggregation(params: URLSearchParams): Aggregation {
  const methods = listParam(params.get('aggrMethods'))
  if (!methods?.length) throw badRequest('aggregatedValues needs aggrMethods')
  const unknown = methods.filter((method) => !(AGGREGATION_METHODS as readonly string[]).includes(method))
  if (unknown.length) throw badRequest(`Unknown aggregation method '${unknown[0]}': use ${AGGREGATION_METHODS.join(', ')}`)
  const duration = params.get('aggrPeriodDuration')
  return { methods: methods as AggregationMethod[], periodMs: duration === null ? 0 : parseDuration(duration) }
}

const DURATION = /^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/** Weeks, days, hours, minutes and seconds; years and months have no fixed length to step by. */
function parseDuration(text: string): number {
  if (/^P[^T]*[YM]/.test(text)) throw notSupported(`aggrPeriodDuration '${text}': years and months are not supported, use weeks or days`)
  const match = DURATION.exec(text)
  if (!match) throw badRequest(`Invalid aggrPeriodDuration '${text}': an ISO 8601 duration such as PT1H is required`)
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0))
  return ((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000
}

/** `[value, periodStart, periodEnd]` per period that has readings, as the spec's aggregated representation. */
function aggregate(points: [unknown, number][], aggregation: Aggregation, window: TemporalWindow): Record<string, [unknown, string, string][]> {
  const periodMs = aggregation.periodMs || window.toMs - window.originMs + 1
  const periods = new Map<number, unknown[]>()
  for (const [value, time] of points) {
    const start = window.originMs + Math.floor((time - window.originMs) / periodMs) * periodMs
    const values = periods.get(start) ?? []
    values.push(value)
    periods.set(start, values)
  }
  const result: Record<string, [unknown, string, string][]> = {}
  for (const method of aggregation.methods) {
    result[method] = [...periods].map(([start, values]) => [
      aggregateValues(method, values),
      new Date(start).toISOString(),
      new Date(Math.min(start + periodMs, window.toMs + 1)).toISOString(),
    ])
  }
  return result
}

function aggregateValues(method: AggregationMethod, values: unknown[]): unknown {
  if (method === 'totalCount') return values.length
  if (method === 'distinctCount') return new Set(values.map((value) => JSON.stringify(value))).size
  const numbers = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value))
  if (numbers.length === 0) return null
  const sum = numbers.reduce((total, value) => total + value, 0)
  const mean = sum / numbers.length
  switch (method) {
    case 'sum':
      return sum
    case 'avg':
      return mean
    case 'min':
      return Math.min(...numbers)
    case 'max':
      return Math.max(...numbers)
    case 'sumsq':
      return numbers.reduce((total, value) => total + value * value, 0)
    case 'stddev':
      return Math.sqrt(numbers.reduce((total, value) => total + (value - mean) ** 2, 0) / numbers.length)
  }
}

function parseWindow(params: URLSearchParams, nowMs: number): TemporalWindow {
  let fromMs = nowMs - HISTORY_RETENTION_MS
  let toMs = nowMs
  let originMs = fromMs
  const timerel = params.get('timerel')
  if (timerel !== null) {
    const timeAt = parseTime(params, 'timeAt')
    if (timerel === 'before') toMs = Math.min(toMs, timeAt - 1)
    else if (timerel === 'after') {
      fromMs = Math.max(fromMs, timeAt + 1)
      originMs = timeAt
    } else if (timerel === 'between') {
      originMs = timeAt
      fromMs = Math.max(fromMs, timeAt)
      toMs = Math.min(toMs, parseTime(params, 'endTimeAt') - 1)
    } else throw badRequest(`Invalid timerel '${timerel}': use before, after or between`)
  } else if (params.has('timeAt')) {
    throw badRequest('timeAt needs timerel')
  }
  const lastNText = params.get('lastN')
  if (lastNText !== null && !/^[1-9]\d{0,8}$/.test(lastNText)) throw badRequest(`Invalid lastN '${lastNText}': a positive integer is required`)
  return { fromMs, toMs, originMs, lastN: lastNText === null ? undefined : Number(lastNText) }
}

function parseTime(params: URLSearchParams, name: string): number {
  const text = params.get(name)
  if (text === null) throw badRequest(`${name} is required with timerel=${params.get('timerel')}`)
  const ms = Date.parse(text)
  if (!DATE_TIME.test(text) || Number.isNaN(ms)) throw badRequest(`Invalid ${name} '${text}': an ISO 8601 date-time with time zone is required`)
  return ms
}

/** Refuses a page whose history would not fit in memory, before computing any of it. */
function assertAffordable(page: StaticEntity[], request: TemporalRequest): void {
  const { fromMs, toMs, lastN } = request.window
  const perAttribute = Math.min(Math.max(0, Math.floor((toMs - fromMs) / HISTORY_STEP_MS) + 1), lastN ?? Infinity, request.instanceLimit ?? Infinity)
  let total = 0
  for (const entity of page) {
    const readings = typeModels[entity.type].changingAttributes.filter((spec) => spec.changes === 'reading' && (!request.attrs || request.attrs.has(spec.name)))
    total += perAttribute * readings.length
  }
  if (total > MAX_INSTANCES_PER_RESPONSE) {
    throw new BrokerError(403, errorTypes.tooManyResults, 'Too many results', `${total} temporal instances requested; narrow it with lastN, timerel, attrs or a lower limit`)
  }
}

interface TemporalResult {
  body: Record<string, unknown>
  truncated?: { first: number; last: number }
}

function temporalEntity(entity: StaticEntity, request: TemporalRequest): TemporalResult {
  const { fromMs, toMs, lastN } = request.window
  let times = historyTimes(entity, fromMs, toMs)
  if (lastN !== undefined) times = times.slice(-lastN)
  let truncated: TemporalResult['truncated']
  if (request.instanceLimit !== undefined && times.length > request.instanceLimit) {
    // Stellio keeps the oldest instances, or the newest ones when lastN asked for them.
    times = lastN === undefined ? times.slice(0, request.instanceLimit) : times.slice(-request.instanceLimit)
    truncated = { first: times[0], last: times[times.length - 1] }
  }
  const series = new Map<string, { unitCode?: string; points: [unknown, number][] }>()
  for (const time of times) {
    for (const { name, unitCode, value } of observedValues(entity, time)) {
      if (request.attrs && !request.attrs.has(name)) continue
      const entry = series.get(name) ?? { unitCode, points: [] }
      entry.points.push([value, time])
      series.set(name, entry)
    }
  }
  const body: Record<string, unknown> = { id: entity.id, type: entity.type }
  for (const [name, { unitCode, points }] of series) {
    body[name] = request.aggregation
      ? { type: 'Property', ...aggregate(points, request.aggregation, request.window) }
      : request.temporalValues
      ? { type: 'Property', values: points.map(([value, time]) => [value, new Date(time).toISOString()]) }
      : points.map(([value, time]) => ({
          type: 'Property',
          value,
          observedAt: new Date(time).toISOString(),
          ...(unitCode && { unitCode }),
          instanceId: `urn:ngsi-ld:attribute:instance:${entity.seed.toString(16)}-${name}-${time / 1000}`,
        }))
  }
  return { body, truncated }
}

function withRange(response: ApiResponse, truncated: TemporalResult['truncated'], request: TemporalRequest): ApiResponse {
  if (!truncated) return response
  const range = `date-time ${new Date(truncated.first).toISOString()}-${new Date(truncated.last).toISOString()}/${request.window.lastN ?? '*'}`
  return { ...response, status: 206, headers: { ...response.headers, 'Content-Range': range } }
}
