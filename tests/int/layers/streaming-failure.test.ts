import { gunzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeRedisClient, createCache, createRedisClient } from '@/cache'
import { type LayerBody, LayerFeatureService, type LayerSpec } from '@/layers/server/features'
import { NgsiClient, NgsiError } from '@/ngsi'

import { sendJson, startServer, type TestServer } from '../../unit/ngsi/helpers'

// A layer streams from the broker into its gzipped body page by page. A broker that fails on page
// 37 of 50 must leave no partial layer in the cache (memory or Redis): the last good data is served
// stale, and without any, the error — never the 36 pages that did arrive.

const PAGE_SIZE = 100
const PAGES = 50
const TOTAL = PAGE_SIZE * PAGES
const FAILING_OFFSET = 36 * PAGE_SIZE

const entities = Array.from({ length: TOTAL }, (_, index) => ({
  id: `urn:ngsi-ld:ParkingSpot:p-${String(index).padStart(5, '0')}`,
  type: 'ParkingSpot',
  status: { type: 'Property', value: index % 3 === 0 ? 'occupied' : 'free' },
  location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [2.1 + index / 1e5, 41.38] } },
}))

let broker: TestServer
let failPage37 = false

beforeAll(async () => {
  // Orion-LD style: a count on the first page, then offsets fetched in parallel.
  broker = await startServer((request, response) => {
    const offset = Number(request.url.searchParams.get('offset') ?? 0)
    const limit = Number(request.url.searchParams.get('limit'))
    if (failPage37 && offset === FAILING_OFFSET) {
      return sendJson(response, 503, { type: 'https://uri.etsi.org/ngsi-ld/errors/InternalError', title: 'Service Unavailable' })
    }
    const headers = request.url.searchParams.get('count') === 'true' ? { 'NGSILD-Results-Count': String(TOTAL) } : undefined
    sendJson(response, 200, entities.slice(offset, offset + limit), headers)
  })
})

afterAll(async () => {
  await broker?.close()
})

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
// One connection for the file, as the app has one per process.
const redis = createRedisClient(redisUrl)
afterAll(() => closeRedisClient(redis))
const decode = (body: LayerBody) => JSON.parse(gunzipSync(body.gzipped).toString('utf8')) as { features: { id: string }[]; meta: LayerBody['meta'] }
const offsetsAsked = () => broker.requests.map((request) => Number(request.url.searchParams.get('offset') ?? 0))

describe.each([
  ['memory', undefined],
  ['redis', redisUrl],
])('a broker failing on page 37 of 50 (%s cache)', (kind, url) => {
  const spec: LayerSpec = {
    id: `streaming-${kind}-${process.pid}`,
    updatedAt: new Date().toISOString(),
    entityType: 'ParkingSpot',
    attributes: ['status'],
    filters: [],
    alertRules: [],
    refreshSeconds: 60,
    maxFeatures: 50_000,
  }

  function setup() {
    let clock = Date.now()
    const cache = createCache({ redis: url ? redis : undefined, keyPrefix: `citydash-test:${process.pid}:${Date.now()}:${Math.random()}:` })
    const replica = () =>
      new LayerFeatureService({
        client: new NgsiClient({ brokerUrl: broker.url, maxPageSize: PAGE_SIZE, pageConcurrency: 4, timeoutMs: 5_000, retries: 0 }),
        cache,
        now: () => clock,
      })
    return { cache, replica, advance: (seconds: number) => (clock += seconds * 1_000) }
  }

  it('serves the last good layer stale and caches nothing of the failed load', async () => {
    const { cache, replica, advance } = setup()
    const service = replica()
    try {
      failPage37 = false
      const good = await service.get(spec, { tenant: 'barcelona' })
      expect(good.state).toBe('miss')
      expect(decode(good).features).toHaveLength(TOTAL)

      failPage37 = true
      broker.requests.length = 0
      advance(60 * 2 + 1)
      const stale = await service.get(spec, { tenant: 'barcelona' })
      // The load really got that far: the failure came midway, after pages had been streamed.
      expect(offsetsAsked()).toContain(FAILING_OFFSET)
      expect(Math.max(...offsetsAsked())).toBeLessThan(TOTAL - PAGE_SIZE)
      expect(stale.state).toBe('stale-error')
      const staleBody = decode(stale)
      expect(staleBody.meta).toMatchObject({ stale: true, count: TOTAL, fetchedAt: good.meta.fetchedAt })
      expect(staleBody.features.map((feature) => feature.id)).toEqual(decode(good).features.map((feature) => feature.id))

      // Another replica on the same store finds the whole last good layer, not a partial one.
      const other = await replica().get(spec, { tenant: 'barcelona' })
      expect(other.state).toBe('stale-error')
      expect(decode(other).features).toHaveLength(TOTAL)
      expect(other.meta.fetchedAt).toBe(good.meta.fetchedAt)
    } finally {
      failPage37 = false
      await cache.close()
    }
  })

  it('answers the error when there is no last good data, then loads the whole layer once the broker recovers', async () => {
    const { cache, replica, advance } = setup()
    const service = replica()
    const fresh = { ...spec, id: `${spec.id}-cold` }
    try {
      failPage37 = true
      const failure = await service.get(fresh, { tenant: 'barcelona' }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(NgsiError)
      await expect(replica().get(fresh, { tenant: 'barcelona' })).rejects.toBeInstanceOf(NgsiError)

      failPage37 = false
      advance(16)
      const recovered = await service.get(fresh, { tenant: 'barcelona' })
      expect(recovered.state).toBe('miss')
      expect(recovered.meta).toMatchObject({ count: TOTAL, stale: false, truncated: false })
      expect(decode(recovered).features).toHaveLength(TOTAL)
    } finally {
      failPage37 = false
      await cache.close()
    }
  })
})
