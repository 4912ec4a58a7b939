import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type BrokerTransport, NgsiClient, toFeatureCollection, undiciTransport } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'

const flavors = ['orion-ld', 'scorpio', 'stellio'] as const

/** The client's own transport, counting requests, to see paging happen against the real broker code. */
function countingTransport() {
  const urls: string[] = []
  const transport: BrokerTransport = (url, init) => {
    urls.push(url)
    return undiciTransport(url, init)
  }
  return { urls, transport }
}

describe.each(flavors)('demo broker, %s flavor', (flavor) => {
  let broker: DemoBroker
  let client: NgsiClient

  beforeAll(async () => {
    broker = await startDemoBroker({ port: 0, flavor })
    client = new NgsiClient({ brokerUrl: broker.url, tenant: 'santander', retries: 0 })
  })
  afterAll(() => broker.close())

  it('returns every WeatherObserved of santander, the count matching the total', async () => {
    const result = await client.queryEntities({ type: 'WeatherObserved' })
    expect(result.total).toBe(60)
    expect(result.entities).toHaveLength(60)
    expect(result.truncated).toBe(false)
    expect(new Set(result.entities.map((entity) => entity.id)).size).toBe(60)
    for (const entity of result.entities) {
      expect(entity.type).toBe('WeatherObserved')
      expect(entity.attributes.temperature).toMatchObject({ kind: 'Property', unitCode: 'CEL', unit: '°C' })
      expect(entity.location?.type).toBe('Point')
      expect(entity.observedAt).toMatch(/Z$/)
    }
    expect(toFeatureCollection(result.entities, { attributes: ['temperature'] })).toMatchObject({ skipped: 0, features: { length: 60 } })
  })

  it('pages through small pages to the same entities (offsets or next links, as the flavor does)', async () => {
    const counter = countingTransport()
    const paged = new NgsiClient({ brokerUrl: broker.url, tenant: 'santander', maxPageSize: 7, pageConcurrency: 3, transport: counter.transport })
    const small = await paged.queryEntities({ type: 'WeatherObserved' })
    const large = await client.queryEntities({ type: 'WeatherObserved' })
    expect(small.entities.map((entity) => entity.id)).toEqual(large.entities.map((entity) => entity.id))
    expect(counter.urls).toHaveLength(9)
    // Orion-LD sends no next link: the client computes offsets; the others are followed link by link.
    expect(counter.urls.filter((url) => url.includes('offset='))).toHaveLength(8)
  })

  it('drops a page size above the broker maximum to the maximum it states, and starts there next time', async () => {
    const counter = countingTransport()
    const big = new NgsiClient({ brokerUrl: broker.url, tenant: 'porto', maxPageSize: 1000, transport: counter.transport })
    const query = { type: ['WeatherObserved', 'AirQualityObserved', 'Device'] }
    const result = await big.queryEntities(query)
    expect(result.entities).toHaveLength(180)
    expect(result.total).toBe(180)
    const limits = () => counter.urls.map((url) => Number(new URL(url).searchParams.get('limit')))
    // Stellio caps pages at 100 (403 TooManyResults, "…above the maximum of 100"); Orion-LD and Scorpio accept 1000.
    expect(limits()).toEqual(flavor === 'stellio' ? [1000, 100, 100] : [1000])
    counter.urls.length = 0
    expect((await big.queryEntities(query)).entities).toHaveLength(180)
    expect(limits()).toEqual(flavor === 'stellio' ? [100, 100] : [1000])
  })

  it('filters with q and bbox on the broker side', async () => {
    const all = await client.queryEntities({ type: 'WeatherObserved' })
    const temperatures = all.entities.map((entity) => entity.attributes.temperature.value as number).sort((a, b) => a - b)
    const median = temperatures[30]
    const warm = await client.queryEntities({ type: 'WeatherObserved', q: { kind: 'compare', attribute: 'temperature', operator: '>=', value: median } })
    expect(warm.entities.length).toBe(temperatures.filter((value) => value >= median).length)
    const [lon, lat] = (all.entities[0].location as { coordinates: number[] }).coordinates
    const near = await client.queryEntities({ type: 'WeatherObserved', bbox: [lon - 0.001, lat - 0.001, lon + 0.001, lat + 0.001] })
    expect(near.entities.map((entity) => entity.id)).toContain(all.entities[0].id)
    expect(near.entities.length).toBeLessThan(60)
  })

  it('reports an unknown tenant as unknown-tenant, and a missing entity as not-found', async () => {
    await expect(client.queryEntities({ type: 'WeatherObserved' }, { tenant: 'atlantis' })).rejects.toMatchObject({ kind: 'unknown-tenant', status: 404 })
    await expect(client.getEntity('urn:ngsi-ld:WeatherObserved:nowhere')).rejects.toMatchObject({ kind: 'not-found' })
  })

  it('lists types and attributes and describes a type', async () => {
    expect((await client.listTypes()).sort()).toEqual(['AirQualityObserved', 'Device', 'WeatherObserved'])
    const info = await client.getType('WeatherObserved')
    expect(info).toMatchObject({ type: 'WeatherObserved', entityCount: 60 })
    expect(info.attributes).toEqual(expect.arrayContaining(['temperature', 'location', 'refDevice']))
    expect(await client.listAttributes()).toEqual(expect.arrayContaining(['temperature', 'no2', 'batteryLevel']))
  })

  it('gets one entity by id', async () => {
    const entity = await client.getEntity('urn:ngsi-ld:WeatherObserved:santander-001')
    expect(entity).toMatchObject({ id: 'urn:ngsi-ld:WeatherObserved:santander-001', type: 'WeatherObserved' })
    expect(entity.attributes.refDevice.kind).toBe('Relationship')
    expect(entity.attributes.dateObserved.value).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/)
  })

  it('reads the last N temporal instances (Orion-LD: 501 without a separate temporal service)', async () => {
    const id = 'urn:ngsi-ld:WeatherObserved:santander-001'
    if (flavor === 'orion-ld') {
      await expect(client.temporal(id, { lastN: 5 })).rejects.toMatchObject({ kind: 'not-supported', status: 501 })
      return
    }
    const series = await client.temporal(id, { lastN: 5, attrs: ['temperature'] })
    expect(Object.keys(series)).toEqual(['temperature'])
    expect(series.temperature).toHaveLength(5)
    expect(series.temperature[0]).toMatchObject({ unitCode: 'CEL', unit: '°C' })
    const times = series.temperature.map((point) => Date.parse(point.observedAt))
    expect(times.slice(1).map((time, index) => time - times[index])).toEqual([900_000, 900_000, 900_000, 900_000])
  })

  it('probes the flavor’s version or health endpoint', async () => {
    const probe = await client.probeVersion()
    expect(probe.ok).toBe(true)
    expect(probe.endpoint).toBe({ 'orion-ld': '/version', scorpio: '/q/health', stellio: '/actuator/health' }[flavor])
    if (flavor === 'orion-ld') expect(probe.version).toBe('1.6.0')
    expect(probe.latencyMs).toBeGreaterThanOrEqual(0)
  })
})

describe('temporal paging against the demo broker', () => {
  it('reads Orion-LD history from a separate temporal service (Mintaka stand-in)', async () => {
    const orion = await startDemoBroker({ port: 0, flavor: 'orion-ld' })
    const mintaka = await startDemoBroker({ port: 0, flavor: 'orion-ld', temporal: true })
    try {
      const client = new NgsiClient({ brokerUrl: orion.url, temporalUrl: mintaka.url, tenant: 'porto' })
      const series = await client.temporal('urn:ngsi-ld:AirQualityObserved:porto-001', { lastN: 3, attrs: ['no2', 'pm10'] })
      expect(Object.keys(series).sort()).toEqual(['no2', 'pm10'])
      expect(series.no2).toHaveLength(3)
      expect(series.no2[0].unit).toBe('µg/m³')
    } finally {
      await Promise.all([orion.close(), mintaka.close()])
    }
  })

  it('follows Stellio 206 + Content-Range windows to the whole history, with and without lastN', async () => {
    const stellio = await startDemoBroker({ port: 0, flavor: 'stellio', temporalInstanceLimit: 100 })
    try {
      const counter = countingTransport()
      const client = new NgsiClient({ brokerUrl: stellio.url, tenant: 'santander', transport: counter.transport })
      const id = 'urn:ngsi-ld:WeatherObserved:santander-002'
      const week = await client.temporal(id, { attrs: ['temperature'] })
      // 7 days of one instance every 15 minutes.
      expect(week.temperature).toHaveLength(672)
      expect(new Set(week.temperature.map((point) => point.observedAt)).size).toBe(672)
      expect(counter.urls.length).toBe(7)
      const recent = await client.temporal(id, { attrs: ['temperature'], lastN: 250 })
      expect(recent.temperature).toHaveLength(250)
      expect(recent.temperature.at(-1)).toEqual(week.temperature.at(-1))
      expect(recent.temperature[0]).toEqual(week.temperature[672 - 250])
    } finally {
      await stellio.close()
    }
  })
})
