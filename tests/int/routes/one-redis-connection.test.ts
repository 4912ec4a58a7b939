import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { signedInRoles } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi, TEST_CITIES } from '../helpers/payload'

// With REDIS_URL set, every cache and limiter of the process (layer data, proxy answers, the
// per-route, sign-in and AI limits) shares the composition root's one Redis connection.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

let app: PayloadApi
let inspector: Redis

beforeAll(async () => {
  app = await startPayloadApi({
    broker: { flavor: 'orion-ld' },
    upstreams: { weatherKey: 'weather-key', geocodingKey: 'geocoding-key' },
    // Read by env() on first use, after this.
    env: { REDIS_URL },
    site: { title: 'Test city', cities: TEST_CITIES.slice(0, 1) },
    routes: ['/api/weather', '/api/geocode', '/api/questions/ask', '/api/layers/:id/features'],
  })
  inspector = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await inspector.connect()
})

afterAll(async () => {
  inspector?.disconnect()
  await app?.close()
})

/** The connections Redis sees under the app's client name. */
async function appConnections(): Promise<number> {
  const { redisClientName } = await import('@/server/services')
  const list = (await inspector.client('LIST')) as string
  return list.split('\n').filter((line) => line.split(' ').includes(`name=${redisClientName()}`)).length
}

describe('one Redis connection per process', () => {
  it('serves pages, layers, proxies and every limit through it', async () => {
    const layer = await app.payload.create({
      collection: 'map-layers',
      overrideAccess: true,
      data: { name: 'Air', public: true, entityType: 'AirQualityObserved', attributes: ['name', 'no2'], refreshSeconds: 60, maxFeatures: 50_000 },
    })
    const page = await app.payload.create({
      collection: 'pages',
      overrideAccess: true,
      context: { disableRevalidate: true },
      data: {
        title: 'Dashboard',
        slug: `redis-${Date.now()}`,
        _status: 'published',
        layout: [{ blockType: 'kpiCard', label: 'Places', layer: layer.id, statistic: 'count' }],
      },
    })

    // A page's dashboard data, as a render loads it (layer cache).
    const { loadDashboard } = await import('@/layers/entry/dashboard')
    const { dataBlocksOf } = await import('@/blocks/dataBlocks')
    const dashboard = await loadDashboard(page, dataBlocksOf(page.layout), { draft: false })
    expect(Object.values(dashboard!.initial)[0]).toMatchObject({ status: 'preview' })
    // The features route (same layer cache, other bundle in production).
    expect((await fetch(`${app.baseUrl}/api/layers/${layer.id}/features`)).status).toBe(200)
    // Proxies: their caches and per-client and overall limits.
    expect((await fetch(`${app.baseUrl}/api/weather?lat=43.46&lon=-3.81`)).status).toBe(200)
    expect((await fetch(`${app.baseUrl}/api/geocode?q=Santander`)).status).toBe(200)
    // Questions' limits, then the sign-in limits (accounts sign in over REST).
    const asked = await fetch(`${app.baseUrl}/api/questions/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'How is the air in Santander today?' }),
    })
    expect(asked.status).toBeLessThan(300)
    await signedInRoles(app.payload, app.baseUrl, `redis${Date.now()}`)

    const { redisConnection } = await import('@/server/services')
    expect(redisConnection()?.status).toBe('ready')
    expect(await appConnections()).toBe(1)
  })
})
