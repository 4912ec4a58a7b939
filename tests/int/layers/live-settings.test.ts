import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { authHeaders } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi, TEST_CITIES } from '../helpers/payload'

// Live updates as editors change layers and as brokers misbehave, over real HTTP, SQLite and Redis:
// the demo broker sits behind a proxy that can hold its subscription requests.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const STATION = 'urn:ngsi-ld:AirQualityObserved:santander-005'

let app: PayloadApi

interface BrokerSubscription {
  id: string
  subscriptionName?: string
  throttling?: number
}

/** The broker's subscriptions for one layer in Santander, read straight from the broker. */
async function subscriptionsOf(layerId: string | number): Promise<BrokerSubscription[]> {
  const answer = await fetch(`${app.broker.url}/ngsi-ld/v1/subscriptions?limit=1000`, { headers: { 'NGSILD-Tenant': 'santander' } })
  return ((await answer.json()) as BrokerSubscription[]).filter((item) => item.subscriptionName?.endsWith(`:layer:${layerId}:santander`))
}

const registryOf = async (layerId: string | number) => {
  const { live } = await import('@/layers/entry/live')
  return (await live().subscriptions.records()).filter((record) => record.layerId === String(layerId))
}

const createAirLayer = (name: string, extra: Record<string, unknown> = {}) =>
  app.payload.create({
    collection: 'map-layers',
    overrideAccess: true,
    data: { name, public: true, entityType: 'AirQualityObserved', attributes: ['name', 'airQualityIndex'], refreshSeconds: 300, maxFeatures: 1000, ...extra },
  })

const setNotifications = (body: Record<string, boolean>) =>
  fetch(`${app.broker.url}/__demo/notifications`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

const patchStation = (airQualityIndex: number, observedAt: Date) =>
  fetch(`${app.broker.url}/ngsi-ld/v1/entities/${encodeURIComponent(STATION)}/attrs`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', 'NGSILD-Tenant': 'santander' },
    body: JSON.stringify({ airQualityIndex: { type: 'Property', value: airQualityIndex, observedAt: observedAt.toISOString() } }),
  })

/** The station's airQualityIndex as the features route serves it. */
async function servedIndex(layerId: string | number) {
  const body = (await (await fetch(`${app.baseUrl}/api/layers/${layerId}/features?city=santander`)).json()) as { features: { id: string; properties: { airQualityIndex?: number } }[] }
  return body.features.find((feature) => feature.id === STATION)?.properties.airQualityIndex
}

/** One maintenance round (renew and check), as the schedule runs it; its lock lapses after a second. */
async function maintainOnce(): Promise<void> {
  const { live } = await import('@/layers/entry/live')
  await expect.poll(() => live().maintain(1_000), { timeout: 5_000, interval: 200 }).toBe(true)
}

beforeAll(async () => {
  // A clock stopped ten minutes ago: readings never move by themselves (unnotified), and changes
  // written since are newer than any of them.
  const stopped = new Date(Date.now() - 10 * 60_000)
  app = await startPayloadApi({
    broker: { flavor: 'orion-ld', now: () => stopped, behindProxy: true },
    notified: true,
    env: {
      REDIS_URL,
      // The tests run the checks themselves.
      LIVE_CHECK_SECONDS: '3600',
      LIVE_DATA_CHECK: 'true',
      // Its own Redis keys: the subscription registry of the project's other files is not this file's.
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? ''}live-settings-file:`,
    },
    site: { title: 'Test city', cities: TEST_CITIES.slice(0, 1) },
    routes: ['/api/health', '/api/layers/:id/features', '/api/ngsi-ld/notify/:token'],
    roles: ['viewer'],
  })
  // The start-up reconciliation done before the tests, not in the middle of one.
  const { startLive } = await import('@/layers/entry/live')
  await startLive()
})

afterAll(async () => {
  app?.proxy.release()
  await app?.close()
})

describe('live updates’ throttling, set per layer', () => {
  it('is sent as the subscription’s throttling, and a new value replaces the subscription', async () => {
    const layer = await createAirLayer('Air (throttled)')
    await expect.poll(async () => (await subscriptionsOf(layer.id)).length, { timeout: 10_000 }).toBe(1)
    const [before] = await subscriptionsOf(layer.id)
    expect(before).not.toHaveProperty('throttling')

    await app.payload.update({ collection: 'map-layers', id: layer.id, overrideAccess: true, data: { liveThrottleSeconds: 30 } })
    await expect.poll(async () => (await subscriptionsOf(layer.id)).map((item) => item.throttling), { timeout: 10_000 }).toEqual([30])
    expect((await subscriptionsOf(layer.id))[0]!.id).not.toBe(before!.id)

    // Back to the broker's default: empty and 0 mean the same.
    await app.payload.update({ collection: 'map-layers', id: layer.id, overrideAccess: true, data: { liveThrottleSeconds: 0 } })
    await expect.poll(async () => (await subscriptionsOf(layer.id)).map((item) => item.throttling ?? 'none'), { timeout: 10_000 }).toEqual(['none'])
    await app.payload.delete({ collection: 'map-layers', id: layer.id, overrideAccess: true })
    // Gone before the next test's layer (SQLite may give it the same id) is made.
    await expect.poll(async () => (await subscriptionsOf(layer.id)).length, { timeout: 10_000 }).toBe(0)
  })

  it('refuses anything but whole seconds from 0 to an hour', async () => {
    for (const liveThrottleSeconds of [-1, 2.5, 3601]) {
      await expect(createAirLayer(`Air (bad throttling ${liveThrottleSeconds})`, { liveThrottleSeconds }), String(liveThrottleSeconds)).rejects.toThrow(/liveThrottleSeconds|Live updates/i)
    }
  })
})

describe('a layer removed while its subscription is being made', () => {
  const removals = {
    deleted: (id: string | number) => app.payload.delete({ collection: 'map-layers', id, overrideAccess: true }),
    unpublished: (id: string | number) => app.payload.update({ collection: 'map-layers', id, overrideAccess: true, data: { public: false } }),
  }

  it.each(Object.keys(removals) as (keyof typeof removals)[])('leaves no subscription at the broker when %s mid-creation', async (how) => {
    app.proxy.setHold((method, url) => method === 'POST' && url.pathname === '/ngsi-ld/v1/subscriptions')
    try {
      const layer = await createAirLayer(`Air (${how} mid-creation)`)
      // The save's hook has asked the broker; the broker has not answered yet.
      await expect.poll(() => app.proxy.held(), { timeout: 10_000 }).toBe(1)
      await removals[how](layer.id)
      // Whatever the removal does at once, it has done by now, before the creation completes.
      await new Promise((resolve) => setTimeout(resolve, 300))
      const requestsOf = (method: string) => app.proxy.requests.filter((request) => request.method === method && request.url.pathname.startsWith('/ngsi-ld/v1/subscriptions')).length
      const [posts, deletes] = [requestsOf('POST'), requestsOf('DELETE')]
      app.proxy.setHold(undefined)
      app.proxy.release()
      // The broker does make it (the held request goes through), and it is deleted again...
      await expect.poll(() => requestsOf('DELETE'), { timeout: 10_000 }).toBe(deletes + 1)
      // ...from the broker and (once the broker has answered) the registry, with none made since.
      expect(await subscriptionsOf(layer.id)).toEqual([])
      await expect.poll(() => registryOf(layer.id)).toEqual([])
      expect(requestsOf('POST')).toBe(posts)
      if (how === 'unpublished') await app.payload.delete({ collection: 'map-layers', id: layer.id, overrideAccess: true })
    } finally {
      app.proxy.setHold(undefined)
      app.proxy.release()
    }
  })
})

describe('a broker that stops notifying without reporting a failure', () => {
  it('puts the layer on polling when its data changed with no notification, says why to members, and goes live again once notified', async () => {
    const layer = await createAirLayer('Air (silent broker)')
    await expect.poll(async () => (await registryOf(layer.id)).map((record) => record.mode), { timeout: 10_000 }).toEqual(['live'])
    // Cached, as pages load it: the check compares the broker with this.
    expect((await fetch(`${app.baseUrl}/api/layers/${layer.id}/features?city=santander`)).status).toBe(200)
    await maintainOnce()

    // A notified change keeps it live.
    expect((await patchStation(77, new Date(Date.now() - 60_000))).status).toBe(204)
    await expect.poll(() => servedIndex(layer.id), { timeout: 5_000 }).toBe(77)
    await maintainOnce()
    expect((await registryOf(layer.id)).map((record) => record.mode)).toEqual(['live'])

    // The broker goes quiet: a change, no notification, nothing failed at the broker.
    expect(await (await setNotifications({ silent: true })).json()).toEqual({ reachable: true, silent: true })
    try {
      expect((await patchStation(188, new Date(Date.now() - 30_000))).status).toBe(204)
      await maintainOnce()
      // With no notification since the last check, and so the broker's data still unseen.
      await expect.poll(async () => (await registryOf(layer.id)).map((record) => record.mode), { timeout: 5_000 }).toEqual(['polling'])

      const health = (await (await fetch(`${app.baseUrl}/api/health`, { headers: authHeaders(app.tokens.viewer) })).json()) as { live: { polling: number; pollingLayers: unknown[] } }
      expect(health.live.polling).toBeGreaterThanOrEqual(1)
      expect(health.live.pollingLayers).toContainEqual({ layer: String(layer.id), city: 'santander', reason: expect.stringMatching(new RegExp(`no notification arrived.*${STATION}`)) })
      const anonymous = (await (await fetch(`${app.baseUrl}/api/health`)).json()) as { live: Record<string, unknown> }
      expect(anonymous.live.polling).toBeGreaterThanOrEqual(1)
      expect(anonymous.live).not.toHaveProperty('pollingLayers')

      // The next check keeps it polling while the broker stays quiet.
      await maintainOnce()
      expect((await registryOf(layer.id)).map((record) => record.mode)).toEqual(['polling'])
    } finally {
      await setNotifications({ silent: false })
    }

    // Notified again: back to live at the next check.
    expect((await patchStation(42, new Date(Date.now() - 10_000))).status).toBe(204)
    await expect.poll(() => servedIndex(layer.id), { timeout: 5_000 }).toBe(42)
    await maintainOnce()
    expect((await registryOf(layer.id)).map((record) => record.mode)).toEqual(['live'])
    await app.payload.delete({ collection: 'map-layers', id: layer.id, overrideAccess: true })
  })
})
