import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createMemoryCache } from '@/cache'
import type { LayerSpec } from '@/layers/server/features'
import { LiveSubscriptions, memoryRegistry } from '@/layers/server/liveSubscriptions'
import { SubscriptionClient } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'

// Each broker flavour's own failure states (shared/ngsi-ld/SUBSCRIPTIONS.md §2), read back by the
// check and repaired: notifications failing (Orion-LD pauses after 3, Stellio says failed, Scorpio
// counts timesFailed) and a subscription past its expiry (Scorpio still says active).

const CONTEXT = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'
const STATION = 'urn:ngsi-ld:AirQualityObserved:santander-001'
const layer: LayerSpec = {
  id: 11,
  updatedAt: '2026-12-02T00:00:00.000Z',
  entityType: 'AirQualityObserved',
  attributes: ['name', 'airQualityIndex'],
  filters: [],
  alertRules: [],
  refreshSeconds: 60,
  maxFeatures: 1000,
}

/** The dashboard's notify route as a broker meets it: answers `status` with a Content-Length. */
async function startReceiver() {
  const state = { status: 200, received: 0 }
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      state.received++
      response.writeHead(state.status, { 'Content-Type': 'application/json', 'Content-Length': '2' })
      response.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(['orion-ld', 'scorpio', 'stellio'] as const)('a %s subscription under faults', (flavor) => {
  let broker: DemoBroker
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let client: SubscriptionClient
  /** Moved forward to let subscriptions expire; the broker and the dashboard share it. */
  let offset = 0
  const now = () => Date.now() + offset

  beforeAll(async () => {
    broker = await startDemoBroker({ flavor, now: () => new Date(now()) })
    receiver = await startReceiver()
    client = new SubscriptionClient({ brokerUrl: broker.url, contextUrl: CONTEXT })
  })
  afterAll(async () => {
    await receiver.close()
    await broker.close()
  })

  const subscriptions = () => {
    const cache = createMemoryCache({ maxEntries: 100, maxBytes: 1_000_000 })
    return new LiveSubscriptions({
      client,
      registry: memoryRegistry(),
      lock: (name, ttlMs) => cache.tryLock(name, ttlMs),
      notifyUrl: receiver.url,
      namePrefix: `faults-${flavor}`,
      expirySeconds: 3600,
      now,
    })
  }
  const change = async (index: number) => {
    const answer = await fetch(`${broker.url}/ngsi-ld/v1/entities/${encodeURIComponent(STATION)}/attrs`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', 'NGSILD-Tenant': 'santander' },
      body: JSON.stringify({ airQualityIndex: { type: 'Property', value: index } }),
    })
    expect(answer.status).toBe(204)
    await broker.notificationsSettled()
  }

  it('puts the layer on polling while notifications fail, and back on live once the endpoint takes one (Orion-LD reactivated after its pause)', async () => {
    const live = subscriptions()
    const record = await live.ensure({ layer, tenant: 'santander' })
    expect(record.mode).toBe('live')
    receiver.state.status = 500
    for (const index of [41, 42, 43]) await change(index)
    const before = await client.get('santander', record.subscriptionId)
    if (flavor === 'orion-ld') expect(before).toMatchObject({ status: 'paused', isActive: false })
    if (flavor === 'stellio') expect(before.notificationStatus).toBe('failed')
    if (flavor === 'scorpio') expect(before.timesFailed).toBeGreaterThan(0)

    const [failing] = await live.check()
    expect(failing).toMatchObject({ mode: 'polling', reason: flavor === 'orion-ld' ? 'the broker paused the subscription' : expect.stringMatching(/^notifications fail/) })
    // Repaired at once: Orion-LD tries again only once active.
    expect((await client.get('santander', record.subscriptionId)).isActive).not.toBe(false)

    receiver.state.status = 200
    const received = receiver.state.received
    await change(44)
    expect(receiver.state.received).toBe(received + 1)
    const [recovered] = await live.check()
    expect(recovered).toMatchObject({ mode: 'live', reason: undefined })
    await live.removeLayer(layer.id)
  })

  it('says what the broker holds: a subscription it lost is noted, made again, and held once more', async () => {
    const live = subscriptions()
    const record = await live.ensure({ layer, tenant: 'santander' })
    expect(record.atBroker).toBe(true)
    await client.delete('santander', record.subscriptionId)
    const [lost] = await live.check()
    expect(lost).toMatchObject({ mode: 'polling', reason: 'the broker lost the subscription (made again)', atBroker: true })
    const [made] = await live.records()
    expect(made!.subscriptionId).not.toBe(record.subscriptionId)
    expect((await client.get('santander', made!.subscriptionId)).id).toBe(made!.subscriptionId)
    // A broker that cannot be asked leaves it unknown-as-before, not "lost".
    broker.setFault('down')
    try {
      await live.check()
    } finally {
      broker.setFault(null)
    }
    expect((await live.records())[0]).toMatchObject({ atBroker: true, mode: 'polling', reason: expect.stringMatching(/^the broker cannot be asked/) })
    await live.removeLayer(layer.id)
  })

  it('puts an expired subscription on polling and gives it its lifetime back at once (Scorpio still says active)', async () => {
    const live = subscriptions()
    const record = await live.ensure({ layer, tenant: 'santander' })
    offset += 2 * 3_600_000
    try {
      const expired = await client.get('santander', record.subscriptionId)
      expect(expired.status).toBe(flavor === 'scorpio' ? 'active' : 'expired')
      const received = receiver.state.received
      await change(51)
      expect(receiver.state.received).toBe(received)

      const [stopped] = await live.check()
      expect(stopped).toMatchObject({ mode: 'polling', reason: 'the subscription expired' })
      const renewed = await client.get('santander', record.subscriptionId)
      expect(Date.parse(renewed.expiresAt!)).toBeGreaterThan(now() + 3_500_000)
      expect(renewed.status ?? 'active').toBe('active')

      await change(52)
      expect(receiver.state.received).toBe(received + 1)
      const [back] = await live.check()
      expect(back).toMatchObject({ mode: 'live' })
    } finally {
      await live.removeLayer(layer.id)
    }
  })
})
