import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { History } from '@/layers/shared/history'

import { HOSTILE_NAME } from '../../../demo/broker/data'
import { authHeaders } from '../../helpers/accounts'
import { startLayerRoutes } from '../helpers/layerRoutes'
import type { PayloadApi } from '../helpers/payload'

// The demo broker's clock stands still, so the route and the test read the same readings.
const NOW = Date.now()

let app: PayloadApi
const layers: Record<string, string | number> = {}

const history = (id: string | number, query = '', headers: Record<string, string> = {}) => fetch(`${app.baseUrl}/api/layers/${id}/history${query}`, { headers })

async function createLayer(name: string, data: Record<string, unknown> = {}) {
  const layer = await app.payload.create({
    collection: 'map-layers',
    overrideAccess: true,
    data: { name, entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'pm10', 'airQualityLevel'], refreshSeconds: 60, maxFeatures: 50_000, ...data },
  })
  return layer.id
}

/** Every reading of `attribute` of a type in the window, straight from the broker (not through the app). */
async function brokerReadings(type: string, attribute: string, from: string, to: string, tenant?: string) {
  const readings: { id: string; time: number; value: number }[] = []
  for (let offset = 0; ; offset += 100) {
    const query = new URLSearchParams({ type, attrs: attribute, timerel: 'between', timeAt: from, endTimeAt: to, options: 'temporalValues', limit: '100', offset: String(offset) })
    const response = await fetch(`${app.broker.url}/ngsi-ld/v1/temporal/entities?${query}`, { headers: tenant ? { 'NGSILD-Tenant': tenant } : {} })
    const page = (await response.json()) as { id: string; [name: string]: unknown }[]
    for (const entity of page) {
      const values = (entity[attribute] as { values: [number, string][] } | undefined)?.values ?? []
      for (const [value, time] of values) readings.push({ id: entity.id, time: Date.parse(time), value })
    }
    if (page.length < 100) return readings
  }
}

/** What the route should answer for the layer: the readings of each period, averaged (or min/max). */
function expectedPerPeriod(readings: { time: number; value: number }[], body: History, reduce: (values: number[]) => number) {
  const periodMs = body.times[1] - body.times[0]
  return body.times.map((start) => {
    const values = readings.filter((reading) => reading.time >= start && reading.time < start + periodMs).map((reading) => reading.value)
    return values.length ? reduce(values) : null
  })
}

const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

function expectClose(actual: (number | null)[], expected: (number | null)[]) {
  expect(actual).toHaveLength(expected.length)
  expected.forEach((value, index) => (value === null ? expect(actual[index]).toBeNull() : expect(actual[index]).toBeCloseTo(value, 6)))
}

beforeAll(async () => {
  app = await startLayerRoutes({ flavor: 'scorpio', hostileNames: true, now: () => new Date(NOW) }, ['/api/layers/:id/history', '/api/layers/:id/features'])
  layers.air = await createLayer('Air quality')
  layers.hidden = await createLayer('Staff only', { public: false })
  layers.porto = await createLayer('Air in Porto', { source: { tenant: 'porto' } })
  layers.noTemporal = await createLayer('Air, no temporal API')
  layers.noAggregation = await createLayer('Air, no aggregation')
})

afterAll(() => app?.close())

describe('GET /api/layers/{id}/history', () => {
  it("averages a week of the layer's entities per period, with the broker's aggregation and the unit", async () => {
    const response = await history(layers.air, '?attributes=no2,pm10&window=week&aggregation=avg')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
    const body = (await response.json()) as History
    expect(body).toMatchObject({ layer: { id: String(layers.air), name: 'Air quality' }, window: 'week', aggregation: 'avg', period: 'PT2H', aggregatedBy: 'broker' })
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(7 * 86_400_000)
    expect(Date.parse(body.to)).toBeGreaterThan(NOW)
    expect(body.times).toHaveLength(84)
    expect(body.entities).toBe(60)
    expect(body.series.map((series) => [series.attribute, series.unit])).toEqual([
      ['no2', 'µg/m³'],
      ['pm10', 'µg/m³'],
    ])
    const readings = await brokerReadings('AirQualityObserved', 'no2', body.from, body.to)
    expectClose(body.series[0].values, expectedPerPeriod(readings, body, average))
    expect(body.series[0].values.filter((value) => value !== null).length).toBeGreaterThan(80)
    // Aggregated by the broker: no raw readings crossed the wire.
    const temporal = app.proxy.requests.filter((request) => request.url.pathname.endsWith('/temporal/entities'))
    expect(temporal.length).toBeGreaterThan(0)
    expect(temporal.every((request) => request.url.searchParams.get('options') === 'aggregatedValues')).toBe(true)
  })

  it('gives the minimum and maximum per period', async () => {
    for (const [aggregation, reduce] of [
      ['min', (values: number[]) => Math.min(...values)],
      ['max', (values: number[]) => Math.max(...values)],
    ] as const) {
      const body = (await (await history(layers.air, `?attributes=no2&window=day&aggregation=${aggregation}`)).json()) as History
      expect(body.times).toHaveLength(24)
      expectClose(body.series[0].values, expectedPerPeriod(await brokerReadings('AirQualityObserved', 'no2', body.from, body.to), body, reduce))
    }
  })

  it("gives one entity's raw readings and names it as text", async () => {
    const features = (await (await fetch(`${app.baseUrl}/api/layers/${layers.air}/features`)).json()) as { features: { id: string; properties: { name?: string } }[] }
    const hostile = features.features.find((feature) => feature.properties.name === HOSTILE_NAME)!
    expect(hostile).toBeDefined()
    const body = (await (await history(layers.air, `?attributes=no2&window=day&aggregation=raw&entity=${encodeURIComponent(hostile.id)}`)).json()) as History
    expect(body.entity).toEqual({ id: hostile.id, name: HOSTILE_NAME })
    expect(body.period).toBeUndefined()
    const readings = (await brokerReadings('AirQualityObserved', 'no2', body.from, body.to)).filter((reading) => reading.id === hostile.id)
    expect(body.times).toEqual(readings.map((reading) => reading.time))
    expect(body.series[0].values).toEqual(readings.map((reading) => reading.value))
    expect(body.entities).toBe(1)
  })

  it('refuses an entity that is not in the layer', async () => {
    const response = await history(layers.air, `?attributes=no2&aggregation=raw&entity=${encodeURIComponent('urn:ngsi-ld:WeatherObserved:nowhere')}`)
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: 'No such entity in this layer' })
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await history(layers.air, '?attributes=no2')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"h-[\w-]+"$/)
    const again = await history(layers.air, '?attributes=no2', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  it('hides non-public layers from anonymous callers but not from viewers', async () => {
    const anonymous = await history(layers.hidden, '?attributes=no2')
    expect(anonymous.status).toBe(404)
    expect(await anonymous.json()).toMatchObject({ error: 'No such map layer' })
    const asViewer = await history(layers.hidden, '?attributes=no2', authHeaders(app.tokens.viewer))
    expect(asViewer.status).toBe(200)
    expect(asViewer.headers.get('cache-control')).toBe('private, no-cache, no-transform')
  })

  it("reads the layer's own tenant, and a known city for layers without one", async () => {
    const porto = (await (await history(layers.porto, '?attributes=no2&window=day')).json()) as History
    const portoReadings = await brokerReadings('AirQualityObserved', 'no2', porto.from, porto.to, 'porto')
    expectClose(porto.series[0].values, expectedPerPeriod(portoReadings, porto, average))
    const asked = (await (await history(layers.air, '?attributes=no2&window=day&city=porto')).json()) as History
    expect(asked.series[0].values).toEqual(porto.series[0].values)
    const tenants = app.proxy.requests.filter((request) => request.url.pathname.endsWith('/temporal/entities')).map((request) => request.headers['ngsild-tenant'])
    expect(tenants).toContain('porto')
    expect((await history(layers.air, '?attributes=no2&city=atlantis')).status).toBe(400)
  })

  it.each([
    ['?window=day', 'attributes'],
    ['?attributes=no2&window=year', 'window'],
    ['?attributes=no2&window=', 'window'],
    ['?attributes=no2&aggregation=median', 'aggregation'],
    ['?attributes=no2&aggregation=raw', 'aggregation=raw needs an entity'],
    ['?attributes=temperature', 'Unknown attribute "temperature"'],
    ['?attributes=no2;drop', 'Letters, digits and _ only'],
    ['?attributes=no2&attributes=pm10', 'Give "attributes" once'],
    ['?attributes=no2&since=yesterday', 'Unsupported parameter "since"'],
    ['?attributes=no2&entity=not%20an%20id', 'entity'],
  ])('answers 400 {error} to %s', async (query, message) => {
    const response = await history(layers.air, query)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toContain(message)
  })

  it('answers 404 to a malformed layer id', async () => {
    expect((await history('1%20OR%201=1', '?attributes=no2')).status).toBe(400)
    expect((await history(999_999, '?attributes=no2')).status).toBe(404)
  })

  it("says history is not available from a broker without a temporal API (501), and the layer's features still load", async () => {
    app.proxy.setRefusal((url) => url.pathname.includes('/temporal/'))
    try {
      const response = await history(layers.noTemporal, '?attributes=no2&window=day')
      expect(response.status).toBe(501)
      expect(await response.json()).toMatchObject({ error: "History is not available from this city's broker" })
      expect((await fetch(`${app.baseUrl}/api/layers/${layers.noTemporal}/features`)).status).toBe(200)
    } finally {
      app.proxy.setRefusal(undefined)
    }
  })

  it('computes the aggregation itself from raw readings when the broker has none', async () => {
    app.proxy.setRefusal((url) => url.searchParams.get('options') === 'aggregatedValues')
    try {
      const body = (await (await history(layers.noAggregation, '?attributes=no2&window=day&aggregation=avg')).json()) as History
      expect(body.aggregatedBy).toBe('server')
      expectClose(body.series[0].values, expectedPerPeriod(await brokerReadings('AirQualityObserved', 'no2', body.from, body.to), body, average))
    } finally {
      app.proxy.setRefusal(undefined)
    }
  })
})
