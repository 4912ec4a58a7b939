import { Redis } from 'ioredis'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'
import { startFakeGeocoding, type FakeGeocoding } from '../../../demo/services/geocoding'
import { startFakeWeather, type FakeWeather } from '../../../demo/services/weather'
import { signedInRoles } from '../../helpers/accounts'
import { startHttpServer } from '../helpers/http'
import { startPayload } from '../helpers/payload'

// With REDIS_URL set, every cache and limiter of the process (layer data, proxy answers, the
// per-route, sign-in and AI limits) shares the composition root's one Redis connection.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

let payload: Payload
let broker: DemoBroker
let weather: FakeWeather
let geocoding: FakeGeocoding
let baseUrl: string
let closeServer: () => Promise<void>
let inspector: Redis

beforeAll(async () => {
  broker = await startDemoBroker({ port: 0, flavor: 'orion-ld' })
  weather = await startFakeWeather({ apiKey: 'weather-key' })
  geocoding = await startFakeGeocoding({ apiKey: 'geocoding-key' })
  // Read by env() on first use, after this.
  Object.assign(process.env, {
    REDIS_URL,
    NGSI_LD_BROKER_URL: broker.url,
    NGSI_LD_TENANT: '',
    WEATHER_API_URL: weather.url,
    WEATHER_API_KEY: 'weather-key',
    GEOCODING_API_URL: geocoding.url,
    GEOCODING_API_KEY: 'geocoding-key',
  })
  const started = await startPayload()
  payload = started.payload
  await payload.updateGlobal({
    slug: 'site-settings',
    data: { title: 'Test city', cities: [{ name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 }] },
  })
  const { default: featuresRoute } = await import('@/pages/api/layers/[id]/features')
  const routes = {
    '/api/weather': (await import('@/app/api/weather/route')).GET,
    '/api/geocode': (await import('@/app/api/geocode/route')).GET,
    '/api/questions/ask': (await import('@/app/api/questions/ask/route')).POST,
  }
  const server = await startHttpServer(started.config, routes, { '/api/layers/:id/features': featuresRoute })
  baseUrl = server.url
  closeServer = server.close
  inspector = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await inspector.connect()
})

afterAll(async () => {
  inspector?.disconnect()
  await closeServer?.()
  await Promise.all([broker?.close(), weather?.close(), geocoding?.close()])
})

/** The connections Redis sees under the app's client name. */
async function appConnections(): Promise<number> {
  const { redisClientName } = await import('@/server/services')
  const list = (await inspector.client('LIST')) as string
  return list.split('\n').filter((line) => line.split(' ').includes(`name=${redisClientName()}`)).length
}

describe('one Redis connection per process', () => {
  it('serves pages, layers, proxies and every limit through it', async () => {
    const layer = await payload.create({
      collection: 'map-layers',
      overrideAccess: true,
      data: { name: 'Air', public: true, entityType: 'AirQualityObserved', attributes: ['name', 'no2'], refreshSeconds: 60, maxFeatures: 50_000 },
    })
    const page = await payload.create({
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
    expect((await fetch(`${baseUrl}/api/layers/${layer.id}/features`)).status).toBe(200)
    // Proxies: their caches and per-client and overall limits.
    expect((await fetch(`${baseUrl}/api/weather?lat=43.46&lon=-3.81`)).status).toBe(200)
    expect((await fetch(`${baseUrl}/api/geocode?q=Santander`)).status).toBe(200)
    // Questions' limits, then the sign-in limits (accounts sign in over REST).
    const asked = await fetch(`${baseUrl}/api/questions/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'How is the air in Santander today?' }),
    })
    expect(asked.status).toBeLessThan(300)
    await signedInRoles(payload, baseUrl, `redis${Date.now()}`)

    const { redisConnection } = await import('@/server/services')
    expect(redisConnection()?.status).toBe('ready')
    expect(await appConnections()).toBe(1)
  })
})
