import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createRedisCache, createRedisClient, whenReady } from '@/cache'
import { LiveHub, redisBus, type BusMessage } from '@/layers/server/live'
import type { LayerSpec } from '@/layers/server/features'
import { LiveSubscriptions, redisRegistry } from '@/layers/server/liveSubscriptions'
import { SubscriptionClient } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'
import { closeClients, deleteKeys, openClient, REDIS_URL, uniquePrefix } from '../cache/redisTest'

// Two replicas = two sets of the live objects over one Redis and one broker, as two processes hold them.

const layer: LayerSpec = {
  id: 7,
  updatedAt: '2026-11-26T00:00:00.000Z',
  entityType: 'AirQualityObserved',
  attributes: ['name', 'airQualityIndex'],
  filters: [],
  alertRules: [],
  refreshSeconds: 60,
  maxFeatures: 1000,
}

let broker: DemoBroker
let prefix: string
const subscriptionsAt = (tenant = 'santander') => new SubscriptionClient({ brokerUrl: broker.url, contextUrl: 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld' }).list(tenant)

function replica(now = Date.now, wanted?: (layerId: string, watched: boolean) => Promise<boolean>) {
  const redis = openClient()
  const cache = createRedisCache({ client: redis, keyPrefix: `${prefix}cache:` })
  const subscriber = createRedisClient(REDIS_URL)
  const hub = new LiveHub({
    bus: redisBus({
      redis,
      ready: () => whenReady(redis, 2000),
      keyPrefix: prefix,
      subscriber: async () => {
        await whenReady(subscriber, 2000)
        return subscriber
      },
      closeSubscriber: async () => subscriber.disconnect(),
    }),
  })
  const subscriptions = new LiveSubscriptions({
    client: new SubscriptionClient({ brokerUrl: broker.url, contextUrl: 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld' }),
    registry: redisRegistry(redis, prefix, () => whenReady(redis, 2000)),
    lock: (name, ttlMs) => cache.tryLock(`live:${name}`, ttlMs),
    notifyUrl: 'http://127.0.0.1:9',
    namePrefix: prefix.replace(/:+$/, ''),
    expirySeconds: 3600,
    now,
    wanted,
  })
  return { hub, subscriptions }
}

beforeAll(async () => {
  broker = await startDemoBroker()
  prefix = uniquePrefix('live')
})
afterAll(async () => {
  await deleteKeys(prefix)
  await closeClients()
  await broker.close()
})

describe('live subscriptions across two replicas', () => {
  it('makes one subscription when both replicas ask at once, and reuses it for an unchanged layer', async () => {
    const [a, b] = [replica(), replica()]
    const [first, second] = await Promise.all([a.subscriptions.ensure({ layer, tenant: 'santander' }), b.subscriptions.ensure({ layer, tenant: 'santander' })])
    expect(first.subscriptionId).toBe(second.subscriptionId)
    expect((await subscriptionsAt()).filter((item) => item.subscriptionName?.startsWith(prefix.replace(/:+$/, '')))).toHaveLength(1)
    const [found] = await subscriptionsAt()
    expect(found).toMatchObject({ subscriptionName: `${prefix.replace(/:+$/, '')}:layer:7:santander`, endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/api\/ngsi-ld\/notify\/[A-Za-z0-9_-]{43}$/) })
    // The token is in the broker's copy only: the registry keeps its hash.
    const token = found!.endpoint!.split('/').pop()!
    expect(JSON.stringify(await b.subscriptions.records())).not.toContain(token)
    expect((await b.subscriptions.byToken(token))?.subscriptionId).toBe(first.subscriptionId)
    expect(await b.subscriptions.byToken(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined()
    expect((await a.subscriptions.ensure({ layer, tenant: 'santander' })).subscriptionId).toBe(first.subscriptionId)
  })

  it('replaces the subscription when the layer’s attributes change, and deletes it with the layer', async () => {
    const a = replica()
    const before = await a.subscriptions.ensure({ layer, tenant: 'santander' })
    const after = await a.subscriptions.ensure({ layer: { ...layer, attributes: ['name', 'no2'] }, tenant: 'santander' })
    expect(after.subscriptionId).not.toBe(before.subscriptionId)
    expect((await subscriptionsAt()).map((item) => item.id)).toEqual([after.subscriptionId])
    await a.subscriptions.removeLayer(7)
    expect(await subscriptionsAt()).toEqual([])
    expect(await a.subscriptions.records()).toEqual([])
  })

  it('renews a subscription past half its life on one replica, and recreates one the broker lost', async () => {
    let clock = Date.now()
    const a = replica(() => clock)
    const record = await a.subscriptions.ensure({ layer, tenant: 'santander' })
    expect(await a.subscriptions.renew()).toBe(0)
    clock += 40 * 60_000
    expect(await a.subscriptions.renew()).toBe(1)
    const [renewed] = await subscriptionsAt()
    expect(Date.parse(renewed!.expiresAt!)).toBe(clock + 3_600_000)
    await new SubscriptionClient({ brokerUrl: broker.url, contextUrl: 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld' }).delete('santander', record.subscriptionId)
    clock += 40 * 60_000
    await a.subscriptions.renew()
    const [again] = await subscriptionsAt()
    expect(again!.id).not.toBe(record.subscriptionId)
    expect((await a.subscriptions.records())[0]!.subscriptionId).toBe(again!.id)
    await a.subscriptions.removeLayer(7)
  })

  it('drops at renewal the subscriptions of a layer that no longer wants them, and keeps them when that cannot be told', async () => {
    let answer: Promise<boolean> = Promise.resolve(true)
    const a = replica(Date.now, () => answer)
    await a.subscriptions.ensure({ layer, tenant: 'santander' })
    answer = Promise.reject(new Error('database down'))
    answer.catch(() => undefined)
    await a.subscriptions.renew()
    expect(await subscriptionsAt()).toHaveLength(1)
    answer = Promise.resolve(false)
    await a.subscriptions.renew()
    expect(await subscriptionsAt()).toEqual([])
    expect(await a.subscriptions.records()).toEqual([])
  })

  it("reconciles after a crash: our strays are deleted; others', and another deployment's with our name, left alone", async () => {
    const a = replica()
    const name = prefix.replace(/:+$/, '')
    const client = new SubscriptionClient({ brokerUrl: broker.url, contextUrl: 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld' })
    const base = { entityType: 'WeatherObserved', attributes: ['temperature'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() }
    const ourEndpoint = `http://127.0.0.1:9/api/ngsi-ld/notify/${'x'.repeat(43)}`
    const stray = await client.create('santander', { ...base, endpoint: ourEndpoint, subscriptionName: `${name}:layer:99:santander` })
    const foreign = await client.create('santander', { ...base, endpoint: ourEndpoint, subscriptionName: 'someone-else' })
    // Staging beside production, with the default name prefix: same names, its own notify URL.
    const staging = await client.create('santander', {
      ...base,
      endpoint: `https://staging.city.example/api/ngsi-ld/notify/${'y'.repeat(43)}`,
      subscriptionName: `${name}:layer:99:santander`,
    })
    const result = await a.subscriptions.reconcile([{ layer, tenant: 'santander' }], ['santander', 'porto'])
    expect(result).toEqual({ created: 1, deleted: 1 })
    const left = (await subscriptionsAt()).map((item) => item.id)
    expect(left).toEqual(expect.arrayContaining([foreign, staging]))
    expect(left).not.toContain(stray)
    expect(left).toHaveLength(3)
    await a.subscriptions.reconcile([], ['santander'])
    expect((await subscriptionsAt()).map((item) => item.id).sort()).toEqual([foreign, staging].sort())
  })

  it('notes a broker that stops answering once for every replica (an error answer, or none in time), and when it answers again', async () => {
    const [a, b] = [replica(), replica()]
    await a.subscriptions.reconcile([{ layer, tenant: 'santander' }], ['santander'])
    expect(await a.subscriptions.probe(1_000)).toEqual({ changed: false })
    // A tenant the broker does not know is a 404 from a broker that works.
    expect(await new SubscriptionClient({ brokerUrl: broker.url, contextUrl: 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld' }).answers('no-such-city', 1_000)).toBe(true)
    try {
      broker.setFault('down')
      const first = await a.subscriptions.probe(1_000)
      expect(first).toEqual({ changed: true, downSince: expect.any(String) })
      expect(await b.subscriptions.probe(1_000)).toEqual({ changed: false, downSince: first.downSince })
      expect(await b.subscriptions.brokerDownSince()).toBe(first.downSince)
      broker.setFault(null)
      expect(await b.subscriptions.probe(1_000)).toEqual({ changed: true })
      // One that holds its answer past the probe's patience counts as down too.
      broker.setFault('slow', 2_000)
      expect((await a.subscriptions.probe(300)).downSince).toEqual(expect.any(String))
    } finally {
      broker.setFault(null)
    }
    expect(await a.subscriptions.probe(1_000)).toEqual({ changed: true })
    await a.subscriptions.reconcile([], ['santander'])
  })

  it('notices a registry lost with Redis (restarted empty) and rebuilds it from the broker: the old subscription replaced, not left failing', async () => {
    const a = replica()
    const ofLayer = async () => (await subscriptionsAt()).filter((item) => item.subscriptionName?.startsWith(`${prefix.replace(/:+$/, '')}:layer:${layer.id}:`))
    await a.subscriptions.reconcile([{ layer, tenant: 'santander' }], ['santander'])
    expect(await a.subscriptions.registryLost()).toBe(false)
    const [old] = await ofLayer()
    await deleteKeys(prefix)
    expect(await a.subscriptions.registryLost()).toBe(true)
    expect(await a.subscriptions.reconcile([{ layer, tenant: 'santander' }], ['santander'])).toEqual({ created: 1, deleted: 1 })
    const now = await ofLayer()
    expect(now).toHaveLength(1)
    expect(now[0]!.id).not.toBe(old!.id)
    expect(await a.subscriptions.registryLost()).toBe(false)
    await a.subscriptions.reconcile([], ['santander'])
  })

  it('continues above every version seen after Redis restarts empty: replica B delivers the next change, and a stream behind resets', async () => {
    const [a, b] = [replica(), replica()]
    await Promise.all([a.hub.start(), b.hub.start()])
    const heard: BusMessage[] = []
    b.hub.listen(['8:santander'], (message) => heard.push(message))
    const change = () => a.hub.publishChange({ layerId: '8', tenant: 'santander', upserted: [], removed: ['urn:y'], tiles: false, at: new Date().toISOString() })
    const before = await change()
    await change()
    await expect.poll(() => heard.length).toBe(2)
    // What a restart with an empty data set leaves: no version counter.
    await deleteKeys(`${prefix}live:version:*`)
    const after = await change()
    expect(after.version).toBeGreaterThan(before.version + 1)
    await expect.poll(() => heard.length).toBe(3)
    expect(heard.at(-1)).toMatchObject({ kind: 'change', event: { version: after.version } })
    // A page at the version before the restart cannot resume across it: it refetches.
    expect(b.hub.catchUp('8:santander', before.version + 1)).toEqual({ kind: 'reset', version: after.version })
  })

  it('delivers a change published at replica A to listeners at replica B, in version order, resumable', async () => {
    const [a, b] = [replica(), replica()]
    await Promise.all([a.hub.start(), b.hub.start()])
    const heard: BusMessage[] = []
    b.hub.listen(['7:santander'], (message) => heard.push(message))
    const feature = { type: 'Feature' as const, id: 'urn:x', geometry: { type: 'Point' as const, coordinates: [0, 0] }, properties: {} }
    const first = await a.hub.publishChange({ layerId: '7', tenant: 'santander', upserted: [feature], removed: [], tiles: false, at: new Date().toISOString() })
    const second = await a.hub.publishChange({ layerId: '7', tenant: 'santander', upserted: [], removed: ['urn:x'], tiles: false, at: new Date().toISOString() })
    await expect.poll(() => heard.length).toBe(2)
    expect(second.version).toBe(first.version + 1)
    expect(heard.map((message) => message.kind === 'change' && message.event.version)).toEqual([first.version, second.version])
    expect(b.hub.since('7:santander', first.version - 1)?.map((event) => event.version)).toEqual([first.version, second.version])
    expect(b.hub.since('7:santander', second.version)).toEqual([])
    expect(b.hub.since('7:santander', first.version - 5)).toBeUndefined()
    await Promise.all([a.hub.close(), b.hub.close()])
  })
})
