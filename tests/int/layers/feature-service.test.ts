import { gunzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeRedisClient, createCache, createRedisClient } from '@/cache'
import { LayerFeatureService, type LayerSpec } from '@/layers/server/features'
import { NgsiClient } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'

// The layer data service against the demo broker, on the in-process cache and on real Redis,
// with a clock the test moves: freshness, staleness and outages without waiting.

let broker: DemoBroker

beforeAll(async () => {
  broker = await startDemoBroker({ port: 0, flavor: 'stellio' })
})

afterAll(async () => {
  await broker?.close()
})

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
// One connection for the file, as the app has one per process.
const redis = createRedisClient(redisUrl)
afterAll(() => closeRedisClient(redis))
const layer = (id: string, overrides: Partial<LayerSpec> = {}): LayerSpec => ({
  id,
  updatedAt: new Date().toISOString(),
  entityType: 'WeatherObserved',
  attributes: ['temperature', 'name'],
  filters: [],
  alertRules: [{ attribute: 'temperature', operator: 'gt', value: -100, level: 'warning', message: 'Warm: {value}' }],
  refreshSeconds: 60,
  maxFeatures: 50_000,
  ...overrides,
})

const decode = (gzipped: Buffer) => JSON.parse(gunzipSync(gzipped).toString('utf8'))

describe.each([
  ['memory', undefined],
  ['redis', redisUrl],
])('layer feature service on the %s cache', (_kind, url) => {
  function setup() {
    let clock = Date.now()
    const cache = createCache({ redis: url ? redis : undefined, keyPrefix: `citydash-test:${process.pid}:${Date.now()}:` })
    const service = new LayerFeatureService({
      client: new NgsiClient({ brokerUrl: broker.url, maxPageSize: 100, timeoutMs: 2_000, retries: 0 }),
      cache,
      now: () => clock,
    })
    return { service, cache, advance: (seconds: number) => (clock += seconds * 1_000) }
  }

  it('loads once, then serves fresh, then labels the last good data stale when the broker fails', async () => {
    const { service, cache, advance } = setup()
    const spec = layer(`stale-${url ? 'r' : 'm'}`)
    const first = await service.get(spec, { tenant: 'santander' })
    expect(first.state).toBe('miss')
    const body = decode(first.gzipped)
    expect(body.meta).toMatchObject({ stale: false, count: body.features.length })
    expect(body.features[0].properties.alert).toMatchObject({ level: 'warning', message: expect.stringMatching(/^Warm: /) })
    expect(body.meta.units).toEqual({ temperature: '°C' })

    advance(2)
    expect((await service.get(spec, { tenant: 'santander' })).etag).toBe(first.etag)

    broker.setFault('down')
    try {
      advance(60 * 2 + 1)
      const stale = await service.get(spec, { tenant: 'santander' })
      expect(stale.state).toBe('stale-error')
      expect(stale.etag).not.toBe(first.etag)
      const staleBody = decode(stale.gzipped)
      expect(staleBody.meta.stale).toBe(true)
      expect(staleBody.features).toEqual(body.features)
    } finally {
      broker.setFault(null)
      await cache.close()
    }
  })

  it('reports truncation at the layer cap', async () => {
    const { service, cache } = setup()
    const result = await service.get(layer(`cap-${url ? 'r' : 'm'}`, { maxFeatures: 25 }), { tenant: 'porto' })
    const body = decode(result.gzipped)
    expect(body.features).toHaveLength(25)
    expect(body.meta).toMatchObject({ truncated: true, count: 25 })
    await cache.close()
  })
})
