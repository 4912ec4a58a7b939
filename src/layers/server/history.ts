// A layer's history from the NGSI-LD temporal API: one entity's readings, or the layer's entities
// aggregated per period (the broker's aggregated representation where it has one, computed here
// from raw values where it has not), cached stale-while-revalidate like the layer's features.

import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'

import { LRUCache } from 'lru-cache'

import type { Cache, SwrCache, SwrCodec, SwrState } from '@/cache'
import { type NgsiClient, NgsiError, rowsToQuery, type TemporalQuery, type TemporalSeries } from '@/ngsi'

import { type LayerFeatureService, type LayerSpec, swrPerRefresh } from './features'
import type { AttributeDisplay } from '../shared/presentation'
import { HISTORY_WINDOWS, type History, type HistoryAggregation, type HistoryRequest, type HistoryWindow } from '../shared/history'

export { HISTORY_WINDOWS, historyAggregations, historyWindows, type History, type HistoryRequest } from '../shared/history'

type Method = Exclude<HistoryAggregation, 'raw'>

/** The window ends with the period under way, so one cached answer serves the whole period. */
export function windowBounds(window: HistoryWindow, nowMs: number): { fromMs: number; toMs: number } {
  const { spanMs, periodMs } = HISTORY_WINDOWS[window]
  const toMs = Math.ceil((nowMs + 1) / periodMs) * periodMs
  return { fromMs: toMs - spanMs, toMs }
}

interface Totals {
  sum: number
  count: number
  min: number
  max: number
}

/**
 * Per attribute and period: sum, count, min and max, fed with raw readings or with each entity's
 * aggregates from the broker; the layer's average is then Σsum / Σcount, exact across entities.
 */
export function createPeriodTotals(attributes: string[], fromMs: number, periodMs: number, periods: number) {
  const totals = new Map(attributes.map((attribute) => [attribute, Array.from({ length: periods }, (): Totals => ({ sum: 0, count: 0, min: Infinity, max: -Infinity }))]))
  const slot = (attribute: string, timeMs: number) => {
    const index = Math.floor((timeMs - fromMs) / periodMs)
    return index >= 0 && index < periods ? totals.get(attribute)?.[index] : undefined
  }
  return {
    addReading(attribute: string, timeMs: number, value: unknown) {
      const target = slot(attribute, timeMs)
      if (!target || typeof value !== 'number' || !Number.isFinite(value)) return
      target.sum += value
      target.count += 1
      target.min = Math.min(target.min, value)
      target.max = Math.max(target.max, value)
    },
    addPeriod(attribute: string, startMs: number, part: Partial<Totals>) {
      const target = slot(attribute, startMs)
      if (!target || !part.count) return
      target.sum += part.sum ?? 0
      target.count += part.count
      if (part.min !== undefined) target.min = Math.min(target.min, part.min)
      if (part.max !== undefined) target.max = Math.max(target.max, part.max)
    },
    times: () => Array.from({ length: periods }, (_, index) => fromMs + index * periodMs),
    values(attribute: string, method: Method): (number | null)[] {
      return (totals.get(attribute) ?? []).map((period) => (period.count === 0 ? null : method === 'avg' ? period.sum / period.count : period[method]))
    },
  }
}

/** An entity's aggregated series (sum, totalCount, min, max per period start) added to the totals. */
function addAggregated(totals: ReturnType<typeof createPeriodTotals>, series: TemporalSeries) {
  for (const [attribute, points] of Object.entries(series)) {
    const periods = new Map<string, Partial<Totals>>()
    for (const point of points) {
      if (typeof point.value !== 'number' || !point.method) continue
      const part = periods.get(point.observedAt) ?? {}
      if (point.method === 'totalCount') part.count = point.value
      else if (point.method === 'sum' || point.method === 'min' || point.method === 'max') part[point.method] = point.value
      periods.set(point.observedAt, part)
    }
    for (const [start, part] of periods) totals.addPeriod(attribute, Date.parse(start), part)
  }
}

function addRaw(totals: ReturnType<typeof createPeriodTotals>, series: TemporalSeries) {
  for (const [attribute, points] of Object.entries(series)) {
    for (const point of points) totals.addReading(attribute, Date.parse(point.observedAt), point.value)
  }
}

/** One entity's readings on a shared time axis (attributes may be observed at different times). */
export function alignReadings(series: TemporalSeries, attributes: string[]): { times: number[]; values: Record<string, (number | null)[]> } {
  const times = [...new Set(attributes.flatMap((attribute) => (series[attribute] ?? []).map((point) => Date.parse(point.observedAt))))].sort((a, b) => a - b)
  const index = new Map(times.map((time, position) => [time, position]))
  const values: Record<string, (number | null)[]> = {}
  for (const attribute of attributes) {
    const row = new Array<number | null>(times.length).fill(null)
    for (const point of series[attribute] ?? []) {
      if (typeof point.value === 'number' && Number.isFinite(point.value)) row[index.get(Date.parse(point.observedAt))!] = point.value
    }
    values[attribute] = row
  }
  return { times, values }
}

/** A cached history: its JSON body, gzipped once (as layer bodies are), and that body's ETag. */
export interface HistoryBody {
  etag: string
  gzipped: Buffer
}

export interface HistoryResult extends HistoryBody {
  state: SwrState
}

// Cached as `etag\n` and the gzipped JSON.
const codec: SwrCodec<HistoryBody> = {
  encode: ({ etag, gzipped }) => Buffer.concat([Buffer.from(`${etag}\n`), gzipped]),
  decode: (raw) => {
    const buffer = typeof raw === 'string' ? Buffer.from(raw, 'binary') : raw
    const newline = buffer.indexOf(10)
    return { etag: buffer.subarray(0, newline).toString('utf8'), gzipped: buffer.subarray(newline + 1) }
  },
}

export interface HistoryServiceOptions {
  client: NgsiClient
  cache: Cache
  /** Entity names, units and membership come from the layer's features. */
  features: LayerFeatureService
  now?: () => number
}

/** The methods asked of the broker: enough to combine entities exactly. */
const BROKER_METHODS: NonNullable<TemporalQuery['aggrMethods']> = ['sum', 'totalCount', 'min', 'max']

export class HistoryService {
  private readonly client: NgsiClient
  private readonly features: LayerFeatureService
  private readonly now: () => number
  private readonly swrFor: (refreshSeconds: number) => SwrCache<HistoryBody>
  private readonly hot: LRUCache<string, HistoryBody>
  // Brokers (per tenant) that refused the aggregated representation: asked for raw readings from then on.
  private readonly withoutAggregation = new LRUCache<string, true>({ max: 1_000, ttl: 3_600_000 })
  private readonly reading = new Map<string, Promise<{ body: HistoryBody; state: SwrState }>>()

  constructor({ client, cache, features, now = Date.now }: HistoryServiceOptions) {
    this.client = client
    this.features = features
    this.now = now
    this.hot = new LRUCache<string, HistoryBody>({ max: 500, ttl: 1_000, ttlResolution: 0, perf: { now } })
    this.swrFor = swrPerRefresh({ cache, codec, now, keepSeconds: 86_400 })
  }

  /** The history; throws the broker's error (NgsiError) only when no last good answer is kept. */
  async get(layer: LayerSpec, layerName: string, request: HistoryRequest, options: { tenant?: string; display?: AttributeDisplay[] } = {}): Promise<HistoryResult> {
    const entityKey = request.entity ? createHash('sha1').update(request.entity).digest('base64url') : ''
    const key = `history-gz:${layer.id}:${layer.updatedAt}:${options.tenant ?? ''}:${request.window}:${request.aggregation}:${request.attributes.join(',')}:${entityKey}`
    const known = this.hot.get(key)
    if (known) return { ...known, state: 'fresh' }
    let pending = this.reading.get(key)
    if (!pending) {
      pending = this.swrFor(layer.refreshSeconds)
        .getOrLoad(key, () => this.load(layer, layerName, request, options.tenant, options.display))
        .then(({ value, state }) => {
          if (state !== 'stale-error') this.hot.set(key, value)
          return { body: value, state }
        })
        .finally(() => this.reading.delete(key))
      this.reading.set(key, pending)
    }
    const { body, state } = await pending
    return { ...body, state }
  }

  private async load(layer: LayerSpec, layerName: string, request: HistoryRequest, tenant: string | undefined, display: AttributeDisplay[] = []): Promise<HistoryBody> {
    const layerData = await this.features.get(layer, { tenant })
    let entityName: string | undefined
    if (request.entity) {
      let found = false
      await this.features.eachFeature(layerData, (feature) => {
        if (found || String(feature.id) !== request.entity) return
        found = true
        entityName = typeof feature.properties.name === 'string' ? feature.properties.name : undefined
      })
      if (!found) throw new HistoryError('not-in-layer', 'No such entity in this layer')
    }
    const { period, periodMs } = HISTORY_WINDOWS[request.window]
    const { fromMs, toMs } = windowBounds(request.window, this.now())
    const window: TemporalQuery = { attrs: request.attributes, timerel: 'between', timeAt: new Date(fromMs).toISOString(), endTimeAt: new Date(toMs).toISOString() }
    const aggregatedQuery: TemporalQuery = { ...window, aggrMethods: BROKER_METHODS, aggrPeriodDuration: period }
    const options = { tenant, contextUrl: layer.contextUrl }

    let times: number[]
    let values: Record<string, (number | null)[]>
    let aggregatedBy: History['aggregatedBy']
    let entities = 0
    if (request.aggregation === 'raw') {
      ;({ times, values } = alignReadings(await this.client.temporal(request.entity!, window, options), request.attributes))
      entities = 1
    } else {
      const method = request.aggregation
      const periods = Math.round((toMs - fromMs) / periodMs)
      let totals = createPeriodTotals(request.attributes, fromMs, periodMs, periods)
      aggregatedBy = await this.aggregatedOrRaw(tenant, async (aggregated) => {
        totals = createPeriodTotals(request.attributes, fromMs, periodMs, periods)
        const add = (series: TemporalSeries) => (aggregated ? addAggregated(totals, series) : addRaw(totals, series))
        if (request.entity) {
          add(await this.client.temporal(request.entity, aggregated ? aggregatedQuery : window, options))
          entities = 1
        } else {
          const streamed = await this.client.streamTemporal(
            { type: layer.entityType, q: layer.filters.length ? rowsToQuery(layer.filters) : undefined, limit: layer.maxFeatures },
            aggregated ? aggregatedQuery : window,
            (page) => page.forEach((entity) => add(entity.series)),
            options,
          )
          entities = streamed.count
        }
      })
      times = totals.times()
      values = Object.fromEntries(request.attributes.map((attribute) => [attribute, totals.values(attribute, method)]))
    }

    const history: History = {
      layer: { id: String(layer.id), name: layerName },
      ...(request.entity && { entity: { id: request.entity, ...(entityName !== undefined && { name: entityName }) } }),
      window: request.window,
      aggregation: request.aggregation,
      ...(request.aggregation !== 'raw' && { period }),
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      ...(aggregatedBy && { aggregatedBy }),
      entities,
      times,
      series: request.attributes.map((attribute) => ({ attribute, ...(layerData.meta.units[attribute] && { unit: layerData.meta.units[attribute] }), values: values[attribute] })),
    }
    // How the layer shows these attributes (labels, units, formats): the key holds the layer's updatedAt, so an edit is a new answer.
    const shown = display.filter((row) => request.attributes.includes(row.attribute))
    if (shown.length) history.display = shown
    const json = Buffer.from(JSON.stringify(history))
    return { gzipped: gzipSync(json), etag: `"h-${createHash('sha1').update(json).digest('base64url')}"` }
  }

  /** Runs the aggregated query; a broker without the aggregated representation gets the raw one instead. */
  private async aggregatedOrRaw(tenant: string | undefined, run: (aggregated: boolean) => Promise<void>): Promise<'broker' | 'server'> {
    const key = tenant ?? ''
    if (!this.withoutAggregation.has(key)) {
      try {
        await run(true)
        return 'broker'
      } catch (error) {
        // 501, or a 400 from a broker that does not know options=aggregatedValues.
        if (!(error instanceof NgsiError) || (error.kind !== 'not-supported' && error.kind !== 'bad-request')) throw error
      }
    }
    await run(false)
    // Only now: a broker with no temporal API at all also refuses the raw query (and throws above).
    this.withoutAggregation.set(key, true)
    return 'server'
  }
}

/** A request the layer cannot answer (not a broker failure). */
export class HistoryError extends Error {
  constructor(
    readonly kind: 'not-in-layer',
    message: string,
  ) {
    super(message)
    this.name = 'HistoryError'
  }
}
