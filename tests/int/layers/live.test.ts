import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { SubscriptionClient } from '@/ngsi'

import { authHeaders, signedInRoles } from '../../helpers/accounts'
import { openEventStream } from '../helpers/eventStream'
import { type PayloadApi, startPayloadApi, TEST_CITIES } from '../helpers/payload'

// Live updates end to end inside one process, over real HTTP, SQLite and Redis: a PATCH at the demo
// broker → its notification at /api/ngsi-ld/notify/{token} → the cached layer and a stream.

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const CONTEXT = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'
const STATION = 'urn:ngsi-ld:AirQualityObserved:santander-005'

let app: PayloadApi
let subscriptions: SubscriptionClient
const layers: Record<string, string | number> = {}

type Collection = { features: { id: string; properties: Record<string, unknown> }[]; meta: { count: number; fetchedAt: string } }

/** The broker's subscriptions for a layer of ours (every layer's without an id). */
/** A layer id no layer has: the name of a stray subscription. */
const STRAY_LAYER = 424242
/** The broker's subscriptions for one of this file's layers (or all of them, and the stray it makes). */
const ours = async (layerId?: string | number, tenant = 'santander') => {
  const mine = layerId === undefined ? [layers.air, layers.staff, STRAY_LAYER] : [layerId]
  return (await subscriptions.list(tenant)).filter((item) => mine.some((id) => item.subscriptionName?.includes(`:layer:${id}:`)))
}
const opened: Awaited<ReturnType<typeof openEventStream>>[] = []
const stream = async (query: string, headers: Record<string, string> = {}) => {
  const item = await openEventStream(`${app.baseUrl}/api/live?${query}`, headers)
  opened.push(item)
  return item
}
const openStreams = async () => ((await (await fetch(`${app.baseUrl}/api/health`)).json()) as { live: { streams: number } }).live.streams
const patchStation = (attributes: Record<string, unknown>) =>
  fetch(`${app.broker.url}/ngsi-ld/v1/entities/${encodeURIComponent(STATION)}/attrs`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', 'NGSILD-Tenant': 'santander' },
    body: JSON.stringify(attributes),
  })

beforeAll(async () => {
  app = await startPayloadApi({
    broker: { flavor: 'orion-ld' },
    notified: true,
    env: {
      REDIS_URL,
      LIVE_SESSION_CHECK_SECONDS: '1',
      // Its own Redis keys: the subscription registry of the project's earlier files is not this file's.
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? ''}live-file:`,
    },
    routes: ['/api/health', '/api/layers/:id/features', '/api/live', '/api/ngsi-ld/notify/:token'],
    roles: ['viewer'],
  })
  subscriptions = new SubscriptionClient({ brokerUrl: app.broker.url, contextUrl: CONTEXT })
  // The integration files share one database: layers other files made would be subscribed too,
  // and this file counts the broker's subscriptions. It starts from a site with none.
  await app.payload.delete({ collection: 'map-layers', where: { id: { exists: true } }, overrideAccess: true })
  await app.payload.updateGlobal({ slug: 'site-settings', data: { title: 'Test city', cities: TEST_CITIES.slice(0, 1) } })
  const air = await app.payload.create({
    collection: 'map-layers',
    overrideAccess: true,
    data: {
      name: 'Air quality (live)',
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'airQualityIndex', 'airQualityLevel'],
      alertRules: [{ attribute: 'airQualityIndex', operator: 'gt', value: '150', level: 'critical', message: 'AQI {value}' }],
      refreshSeconds: 300,
      maxFeatures: 1000,
    },
  })
  layers.air = air.id
  const staff = await app.payload.create({
    collection: 'map-layers',
    overrideAccess: true,
    data: { name: 'Batteries (staff)', public: false, entityType: 'Device', attributes: ['batteryLevel'], refreshSeconds: 300, maxFeatures: 1000 },
  })
  layers.staff = staff.id
})

afterAll(async () => {
  for (const item of opened) item.close()
  await app?.close()
})

describe('live layers', () => {
  it('subscribes a public layer at the broker once, with its type, attributes and our notify address', async () => {
    await expect.poll(async () => (await ours()).length, { timeout: 10_000 }).toBe(1)
    const [subscription] = await ours(layers.air)
    expect(subscription!.endpoint).toMatch(new RegExp(`^${process.env.NGSI_LD_NOTIFY_URL}/api/ngsi-ld/notify/[A-Za-z0-9_-]{43}$`))
    expect(subscription!.subscriptionName).toMatch(new RegExp(`:layer:${layers.air}:santander$`))
    const health = await (await fetch(`${app.baseUrl}/api/health`)).json()
    expect(health.live).toMatchObject({ polling: 0, atBroker: (await ours()).length })
    expect(health.live.subscribed).toBeGreaterThanOrEqual(1)
    // The layer editor shows it per city; members only.
    expect((await fetch(`${app.baseUrl}/api/map-layers/${layers.air}/live`)).status).toBe(401)
    const status = await fetch(`${app.baseUrl}/api/map-layers/${layers.air}/live`, { headers: authHeaders(app.tokens.viewer) })
    expect(await status.json()).toEqual({ enabled: true, cities: [{ tenant: 'santander', mode: 'live' }] })
  })

  it('pushes a broker PATCH to an open stream and into the cached layer (alert recomputed, ETag changed)', async () => {
    const before = await fetch(`${app.baseUrl}/api/layers/${layers.air}/features?city=santander`)
    const etag = before.headers.get('etag')
    const live = await stream(`layers=${layers.air}&city=santander`)
    expect(live.status).toBe(200)
    expect(live.headers['content-type']).toMatch(/^text\/event-stream/)
    await expect.poll(() => live.events.map((event) => event.event)).toContain('ready')
    const ready = live.events.find((event) => event.event === 'ready')!
    expect(ready.data).toEqual({ layers: { [String(layers.air)]: { version: expect.any(Number), mode: 'live' } } })

    expect((await patchStation({ airQualityIndex: { type: 'Property', value: 212 }, airQualityLevel: { type: 'Property', value: 'veryUnhealthy' } })).status).toBe(204)
    await expect.poll(() => live.events.filter((event) => event.event === 'change').length, { timeout: 5_000 }).toBe(1)
    const change = live.events.find((event) => event.event === 'change')!
    expect(change.id).toBe(`${layers.air}.${(ready.data.layers as Record<string, { version: number }>)[String(layers.air)]!.version + 1}`)
    expect(change.data).toMatchObject({
      layer: String(layers.air),
      removed: [],
      upserted: [{ id: STATION, properties: { airQualityIndex: 212, airQualityLevel: 'veryUnhealthy', alert: { level: 'critical', message: 'AQI 212' } } }],
    })

    const after = await fetch(`${app.baseUrl}/api/layers/${layers.air}/features?city=santander`)
    expect(after.headers.get('etag')).not.toBe(etag)
    const body = (await after.json()) as Collection
    expect(body.features.find((feature) => feature.id === STATION)?.properties).toMatchObject({ airQualityIndex: 212, alert: { level: 'critical' } })
    live.close()
  })

  it('resumes from Last-Event-ID within the window, and says reset when it cannot', async () => {
    const first = await stream(`layers=${layers.air}&city=santander`)
    await expect.poll(() => first.events.length).toBeGreaterThan(0)
    const lastId = first.events[0]!.id!
    first.close()
    await patchStation({ airQualityIndex: { type: 'Property', value: 40 } })
    const resumed = await stream(`layers=${layers.air}&city=santander`, { 'last-event-id': lastId })
    await expect.poll(() => resumed.events.map((event) => event.event), { timeout: 5_000 }).toEqual(['ready', 'change'])
    expect(resumed.events[1]!.data).toMatchObject({ upserted: [{ id: STATION, properties: { airQualityIndex: 40 } }] })
    expect(resumed.events[1]!.data.upserted).toEqual([expect.not.objectContaining({ properties: expect.objectContaining({ alert: expect.anything() }) })])
    resumed.close()
    const tooOld = await stream(`layers=${layers.air}&city=santander`, { 'last-event-id': `${layers.air}.999999` })
    await expect.poll(() => tooOld.events.map((event) => event.event)).toEqual(['ready', 'reset'])
    tooOld.close()
  })

  it('gives a client that stopped reading the changes it missed as fewer, merged events once it reads again', async () => {
    const { live } = await import('@/layers/entry/live')
    const slow = await stream(`layers=${layers.air}&city=santander`)
    await expect.poll(() => slow.events.map((event) => event.event)).toContain('ready')
    slow.pause()
    // 30 changes of about 1 MB each, more than the connection's buffers hold.
    const padding = 'x'.repeat(500)
    const features = (round: number) =>
      Array.from({ length: 2000 }, (_, index) => ({ type: 'Feature' as const, id: `urn:ngsi-ld:AirQualityObserved:slow-${index}`, geometry: { type: 'Point' as const, coordinates: [-3.8, 43.46] }, properties: { airQualityIndex: round, name: padding } }))
    let last = 0
    for (let round = 1; round <= 30; round++) {
      ;({ version: last } = await live().hub.publishChange({ layerId: String(layers.air), tenant: 'santander', upserted: features(round), removed: [], tiles: false, at: new Date().toISOString() }))
      // Each handed over on its own: only the stream's backpressure merges them.
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    slow.resume()
    await expect.poll(() => slow.events.at(-1)?.id, { timeout: 15_000 }).toBe(`${layers.air}.${last}`)
    const changes = slow.events.filter((event) => event.event === 'change')
    expect(changes.length).toBeLessThan(30)
    const versions = changes.map((event) => event.data.version as number)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    const latest = changes.at(-1)!.data.upserted as { properties: { airQualityIndex: number } }[]
    expect(latest).toHaveLength(2000)
    expect(new Set(latest.map((feature) => feature.properties.airQualityIndex))).toEqual(new Set([30]))
    expect(slow.ended()).toBe(false)
    slow.close()
  })

  it('streams a members-only layer to members only, and ends the stream when the member is gone', async () => {
    const anonymous = await stream(`layers=${layers.staff}&city=santander`)
    expect(anonymous.status).toBe(404)
    expect(JSON.parse(anonymous.body() || (await anonymous.done, anonymous.body()))).toEqual({ error: 'No such map layer', requestId: expect.any(String) })
    const mixed = await stream(`layers=${layers.air},${layers.staff}&city=santander`)
    expect(mixed.status).toBe(404)

    const leaving = await signedInRoles(app.payload, app.baseUrl, `leaving-${Date.now()}`, ['viewer'])
    const members = await stream(`layers=${layers.staff}&city=santander`, authHeaders(leaving.tokens.viewer))
    expect(members.status).toBe(200)
    await expect.poll(() => members.events.map((event) => event.event)).toContain('ready')
    await app.payload.delete({ collection: 'users', id: leaving.ids.viewer, overrideAccess: true })
    await expect.poll(() => members.ended(), { timeout: 5_000 }).toBe(true)
    // Watching a members-only layer subscribed it (until no one has watched it for a while).
    expect(await ours(layers.staff)).toHaveLength(1)
  })

  it('refuses bad stream requests with 400 {error}', async () => {
    for (const query of ['', 'layers=', 'layers=abc', `layers=${layers.air}&city=atlantis`, `layers=${layers.air}&extra=1`]) {
      const answer = await stream(query)
      expect(answer.status, query).toBe(400)
      await answer.done
      expect(JSON.parse(answer.body()), query).toEqual({ error: expect.any(String), requestId: expect.any(String) })
    }
  })

  it('caps the streams of one client (429 {error}) and lets it open more once some close', async () => {
    await expect.poll(openStreams).toBe(0)
    const open = await Promise.all(Array.from({ length: 20 }, () => stream(`layers=${layers.air}&city=santander`)))
    expect(open.every((item) => item.status === 200)).toBe(true)
    const refused = await stream(`layers=${layers.air}&city=santander`)
    expect(refused.status).toBe(429)
    await refused.done
    expect(JSON.parse(refused.body())).toEqual({ error: expect.any(String) })
    for (const item of open) item.close()
    await expect.poll(openStreams, { timeout: 5_000 }).toBe(0)
    const again = await stream(`layers=${layers.air}&city=santander`)
    expect(again.status).toBe(200)
    again.close()
  })

  it('tells every open page within 10 s that the broker stopped answering, and puts it back on live when it answers', async () => {
    const layer = String(layers.air)
    const watching = await stream(`layers=${layer}&city=santander`)
    await expect.poll(() => watching.events.map((event) => event.event)).toContain('ready')
    const modes = () => watching.events.filter((event) => event.event === 'mode').map((event) => event.data)
    app.broker.setFault('down')
    const diedAt = Date.now()
    try {
      await expect.poll(modes, { timeout: 10_000, interval: 100 }).toContainEqual({ layer, mode: 'polling', brokerDownSince: expect.any(String) })
      expect(Date.now() - diedAt).toBeLessThan(10_000)
      // A page opened meanwhile hears it in `ready`; health says it too.
      const late = await stream(`layers=${layer}&city=santander`)
      await expect.poll(() => late.events.find((event) => event.event === 'ready')?.data).toEqual({ layers: { [layer]: { version: expect.any(Number), mode: 'polling', brokerDownSince: expect.any(String) } } })
      const health = (await (await fetch(`${app.baseUrl}/api/health`)).json()) as { live: { brokerDownSince?: string; subscribed: number } }
      expect(health.live).toMatchObject({ brokerDownSince: expect.any(String), subscribed: 0 })
    } finally {
      app.broker.setFault(null)
    }
    await expect.poll(() => modes().at(-1), { timeout: 10_000, interval: 100 }).toEqual({ layer, mode: 'live' })
    expect(((await (await fetch(`${app.baseUrl}/api/health`)).json()) as { live: Record<string, unknown> }).live).not.toHaveProperty('brokerDownSince')
    watching.close()
  })

  it('deletes the subscription when the layer is unpublished, and makes it again when republished', async () => {
    await app.payload.update({ collection: 'map-layers', id: layers.air, overrideAccess: true, data: { public: false } })
    await expect.poll(async () => (await ours(layers.air)).length, { timeout: 10_000 }).toBe(0)
    await app.payload.update({ collection: 'map-layers', id: layers.air, overrideAccess: true, data: { public: true } })
    await expect.poll(async () => (await ours(layers.air)).length, { timeout: 10_000 }).toBe(1)
  })

  it("deletes the subscription with the layer; reconciliation removes our strays and leaves another deployment's", async () => {
    const { reconcileLive } = await import('@/layers/entry/live')
    const [kept] = await ours(layers.air)
    const strayLike = (endpoint: string) =>
      subscriptions.create('santander', {
        // The same name a crashed process of this deployment, or a deployment with the default prefix, would give.
        subscriptionName: kept!.subscriptionName!.replace(/:layer:\d+:/, `:layer:${STRAY_LAYER}:`),
        entityType: 'WeatherObserved',
        attributes: ['temperature'],
        endpoint,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      })
    const stray = await strayLike(`${process.env.NGSI_LD_NOTIFY_URL}/api/ngsi-ld/notify/${'s'.repeat(43)}`)
    const staging = await strayLike(`https://staging.city.example/api/ngsi-ld/notify/${'t'.repeat(43)}`)
    expect((await ours()).map((item) => item.id)).toEqual(expect.arrayContaining([stray, staging]))
    await reconcileLive()
    // Our stray and the members-only layer's (no one watches it now that the registry is reconciled) are gone; staging's stays.
    expect((await ours()).map((item) => item.id).sort()).toEqual([kept!.id, staging].sort())
    await subscriptions.delete('santander', staging)
    await app.payload.delete({ collection: 'map-layers', id: layers.air, overrideAccess: true })
    await expect.poll(async () => (await ours()).length, { timeout: 10_000 }).toBe(0)
  })
})

describe('POST /api/ngsi-ld/notify/{token}', () => {
  it('answers 404 {error} to a token no subscription has, whatever the body', async () => {
    for (const token of ['x', 'a'.repeat(43), `${'A'.repeat(42)}%00`, 'A'.repeat(200)]) {
      const answer = await fetch(`${app.baseUrl}/api/ngsi-ld/notify/${token}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":"Notification"}' })
      expect(answer.status, token).toBe(404)
      expect(await answer.json()).toEqual({ error: 'Not found', requestId: expect.any(String) })
    }
  })
})

