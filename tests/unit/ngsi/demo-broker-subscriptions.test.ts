import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'

interface Received {
  url: string
  headers: IncomingHttpHeaders
  text: string
  body: { id: string; type: string; subscriptionId: string; notifiedAt: string; data: Record<string, unknown>[] }
}

/** A notification receiver on a free port, answering with `status` (and a Content-Length unless `chunked`). */
async function startReceiver() {
  const received: Received[] = []
  const state = { status: 200, chunked: false }
  const server: Server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, text, body: JSON.parse(text) })
      if (state.chunked) {
        response.writeHead(state.status, { 'Transfer-Encoding': 'chunked' })
        response.end('{}')
      } else {
        response.writeHead(state.status, { 'Content-Type': 'application/json', 'Content-Length': state.status === 204 ? '0' : '2' })
        response.end(state.status === 204 ? undefined : '{}')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ngsi-ld/notify/secret-token`
  return { url, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>

async function call(broker: DemoBroker, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${broker.url}/ngsi-ld/v1${path}`, {
    method,
    headers: { 'NGSILD-Tenant': 'santander', ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}

const weather1 = 'urn:ngsi-ld:WeatherObserved:santander-001'
const weather2 = 'urn:ngsi-ld:WeatherObserved:santander-002'

function subscription(receiver: Receiver, extra: Record<string, unknown> = {}) {
  return {
    type: 'Subscription',
    subscriptionName: 'citydash:test',
    entities: [{ type: 'WeatherObserved' }],
    notification: { attributes: ['temperature'], format: 'normalized', endpoint: { uri: receiver.url, accept: 'application/json' } },
    ...extra,
  }
}

async function subscribe(broker: DemoBroker, receiver: Receiver, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await call(broker, 'POST', '/subscriptions', subscription(receiver, extra))
  expect(created.status).toBe(201)
  return decodeURIComponent(created.headers.get('location')!.split('/').pop()!)
}

const patchTemperature = (broker: DemoBroker, id: string, value: number, headers?: Record<string, string>) =>
  call(broker, 'PATCH', `/entities/${encodeURIComponent(id)}/attrs`, { temperature: { type: 'Property', value, unitCode: 'CEL' } }, headers)

describe.each(['orion-ld', 'scorpio', 'stellio'] as const)('demo broker subscriptions, %s flavor', (flavor) => {
  let broker: DemoBroker
  let receiver: Receiver

  beforeAll(async () => {
    broker = await startDemoBroker({ flavor })
    receiver = await startReceiver()
  })
  afterEach(async () => {
    receiver.received.length = 0
    Object.assign(receiver.state, { status: 200, chunked: false })
    for (const existing of (await call(broker, 'GET', '/subscriptions?limit=100')).body) await call(broker, 'DELETE', `/subscriptions/${encodeURIComponent(existing.id)}`)
  })
  afterAll(async () => {
    await broker.close()
    await receiver.close()
  })

  it('creates, lists, reads and deletes a subscription in the tenant it was made in', async () => {
    const id = await subscribe(broker, receiver, { expiresAt: new Date(Date.now() + 3_600_000).toISOString(), throttling: 1 })
    expect(id).toMatch(flavor === 'scorpio' ? /^urn:[0-9a-f-]{36}$/ : /^urn:ngsi-ld:Subscription:/)
    const read = await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)
    expect(read.body).toMatchObject({ id, type: 'Subscription', subscriptionName: 'citydash:test', throttling: 1, status: 'active' })
    expect((await call(broker, 'GET', '/subscriptions')).body.map((item: { id: string }) => item.id)).toEqual([id])
    expect((await call(broker, 'GET', '/subscriptions', undefined, { 'NGSILD-Tenant': 'porto' })).body).toEqual([])
    expect((await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`, undefined, { 'NGSILD-Tenant': 'porto' })).status).toBe(404)
    expect((await call(broker, 'DELETE', `/subscriptions/${encodeURIComponent(id)}`)).status).toBe(204)
    expect((await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)).status).toBe(404)
  })

  it('notifies a PATCH in the flavor’s format, and the entity reads back the written value', async () => {
    const id = await subscribe(broker, receiver)
    expect((await patchTemperature(broker, weather1, 31.5, { Authorization: 'Bearer someone' })).status).toBe(204)
    await broker.notificationsSettled()
    expect(receiver.received).toHaveLength(1)
    const [notification] = receiver.received
    expect(notification.body).toMatchObject({ type: 'Notification', subscriptionId: id, data: [{ id: weather1, type: 'WeatherObserved', temperature: { type: 'Property', value: 31.5, unitCode: 'CEL' } }] })
    expect(Object.keys(notification.body.data[0])).toEqual(['id', 'type', 'temperature'])
    expect(notification.headers.link).toContain('rel="http://www.w3.org/ns/json-ld#context"')
    const path = '/api/ngsi-ld/notify/secret-token'
    if (flavor === 'orion-ld') {
      expect(notification.url).toBe(`${path}?subscriptionId=${encodeURIComponent(id)}`)
      expect(notification.body.id).toMatch(/^urn:ngsi-ld:Notification:/)
      expect(notification.body.notifiedAt).toMatch(/\.\d{3}Z$/)
      expect(notification.headers.authorization).toBe('Bearer someone')
      expect(notification.headers['ngsild-attribute-format']).toBe('Normalized')
    } else if (flavor === 'scorpio') {
      expect(notification.url).toBe(path)
      expect(notification.body.id).toMatch(/^notification:-?\d+$/)
      expect(notification.body.notifiedAt).toMatch(/\.\d{6}Z$/)
      expect(notification.text).toContain('"type" : "Notification"')
      expect(notification.headers['ngsild-tenant']).toBe('santander')
    } else {
      expect(notification.url).toBe(path)
      expect(notification.body.notifiedAt).toMatch(/(\.\d*[1-9])?Z$/)
      expect(notification.headers.authorization).toBeUndefined()
    }
    const entity = await call(broker, 'GET', `/entities/${encodeURIComponent(weather1)}?attrs=temperature`)
    expect(entity.body.temperature.value).toBe(31.5)
  })

  it('sends a batch upsert as one notification (Stellio: one per entity); only Scorpio notifies a new entity by default', async () => {
    await subscribe(broker, receiver)
    const upsert = await call(broker, 'POST', '/entityOperations/upsert', [
      { id: weather1, type: 'WeatherObserved', temperature: { type: 'Property', value: 10 } },
      { id: weather2, type: 'WeatherObserved', temperature: { type: 'Property', value: 11 } },
      { id: 'urn:ngsi-ld:WeatherObserved:santander-new', type: 'WeatherObserved', temperature: { type: 'Property', value: 12 }, location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8, 43.46] } } },
    ])
    expect(upsert.status).toBe(201)
    expect(upsert.body).toEqual(['urn:ngsi-ld:WeatherObserved:santander-new'])
    await broker.notificationsSettled()
    const notified = receiver.received.flatMap((item) => item.body.data.map((entity) => entity.id)).sort()
    if (flavor === 'stellio') {
      expect(receiver.received).toHaveLength(2)
      expect(notified).toEqual([weather1, weather2])
    } else {
      expect(receiver.received).toHaveLength(1)
      expect(notified).toEqual([weather1, weather2, 'urn:ngsi-ld:WeatherObserved:santander-new'])
    }
    receiver.received.length = 0
    expect((await call(broker, 'DELETE', `/entities/${encodeURIComponent('urn:ngsi-ld:WeatherObserved:santander-new')}`)).status).toBe(204)
    await broker.notificationsSettled()
    // Orion-LD always notifies a deletion; the others only with the entityDeleted trigger.
    expect(receiver.received.map((item) => item.body.data[0])).toEqual(
      flavor === 'orion-ld' ? [{ id: 'urn:ngsi-ld:WeatherObserved:santander-new', type: 'WeatherObserved', deletedAt: expect.any(String) }] : [],
    )
  })

  it('notifies only changes of watched attributes that match q', async () => {
    await subscribe(broker, receiver, { watchedAttributes: ['temperature'], q: 'temperature>30' })
    await call(broker, 'PATCH', `/entities/${encodeURIComponent(weather1)}/attrs`, { relativeHumidity: { type: 'Property', value: 0.5 } })
    await patchTemperature(broker, weather1, 20)
    await patchTemperature(broker, weather1, 35)
    await broker.notificationsSettled()
    expect(receiver.received.map((item) => item.body.data[0].temperature)).toMatchObject([{ value: 35 }])
  })

  it('applies throttling as the flavor does (Orion-LD and Stellio drop changes inside the window)', async () => {
    await subscribe(broker, receiver, { throttling: 60 })
    await patchTemperature(broker, weather1, 1)
    await patchTemperature(broker, weather1, 2)
    await broker.notificationsSettled()
    expect(receiver.received).toHaveLength(flavor === 'scorpio' ? 2 : 1)
    const fractional = await call(broker, 'POST', '/subscriptions', subscription(receiver, { throttling: 1.5 }))
    expect(fractional.status).toBe(flavor === 'orion-ld' ? 201 : 400)
  })

  it('records failed notifications in the flavor’s status members (Orion-LD pauses after 3)', async () => {
    const id = await subscribe(broker, receiver)
    receiver.state.status = 500
    for (const value of [1, 2, 3]) {
      await patchTemperature(broker, weather1, value)
      await broker.notificationsSettled()
    }
    const { body } = await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)
    expect(body.notification.lastFailure).toEqual(expect.any(String))
    if (flavor === 'orion-ld') {
      expect(body).toMatchObject({ status: 'paused', isActive: false, notification: { status: 'failed', timesSent: 3, consecutiveErrors: 3 } })
      expect(body.notification.timesFailed).toBeUndefined()
    } else if (flavor === 'scorpio') {
      expect(body).toMatchObject({ status: 'active', notification: { timesSent: 0, timesFailed: 3 } })
    } else {
      expect(body).toMatchObject({ status: 'active', notification: { status: 'failed', timesSent: 3 } })
    }
  })

  it('counts a 204 answer as delivered except on Stellio, and a chunked 200 as failed on Orion-LD', async () => {
    const id = await subscribe(broker, receiver)
    receiver.state.status = 204
    await patchTemperature(broker, weather1, 5)
    await broker.notificationsSettled()
    receiver.state.status = 200
    receiver.state.chunked = true
    await patchTemperature(broker, weather1, 6)
    await broker.notificationsSettled()
    const { body } = await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)
    const failures = { 'orion-ld': 1, scorpio: 0, stellio: 1 }[flavor]
    expect(Boolean(body.notification.lastFailure)).toBe(failures > 0)
    expect(Boolean(body.notification.lastSuccess)).toBe(true)
  })

  it('renews with PATCH expiresAt; a past expiresAt is refused at creation except by Scorpio; an expired one notifies nothing', async () => {
    const past = new Date(Date.now() - 1000).toISOString()
    const refused = await call(broker, 'POST', '/subscriptions', subscription(receiver, { expiresAt: past }))
    expect(refused.status).toBe(flavor === 'scorpio' ? 201 : 400)
    if (flavor !== 'scorpio') {
      const id = await subscribe(broker, receiver, { expiresAt: new Date(Date.now() + 60_000).toISOString() })
      const later = new Date(Date.now() + 86_400_000).toISOString()
      expect((await call(broker, 'PATCH', `/subscriptions/${encodeURIComponent(id)}`, { expiresAt: later })).status).toBe(204)
      expect((await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)).body.expiresAt).toBe(later)
      await call(broker, 'DELETE', `/subscriptions/${encodeURIComponent(id)}`)
    }
    await patchTemperature(broker, weather1, 7)
    await broker.notificationsSettled()
    expect(receiver.received).toHaveLength(0)
  })

  it('refuses malformed writes and subscriptions with 4xx problems', async () => {
    expect((await call(broker, 'PATCH', `/entities/${encodeURIComponent('urn:ngsi-ld:WeatherObserved:nope')}/attrs`, { temperature: 1 })).status).toBe(404)
    expect((await call(broker, 'PATCH', `/entities/${encodeURIComponent(weather1)}/attrs`, [])).status).toBe(400)
    const text = await fetch(`${broker.url}/ngsi-ld/v1/entities/${encodeURIComponent(weather1)}/attrs`, { method: 'PATCH', headers: { 'Content-Type': 'text/plain' }, body: 'x' })
    expect(text.status).toBe(415)
    const broken = await fetch(`${broker.url}/ngsi-ld/v1/entityOperations/upsert`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[{' })
    expect(broken.status).toBe(400)
    expect((await call(broker, 'POST', '/subscriptions', { type: 'Subscription', notification: { endpoint: { uri: receiver.url } } })).status).toBe(400)
    expect((await call(broker, 'POST', '/subscriptions', subscription(receiver, { notificationTrigger: ['entityCreated'] }))).status).toBe(flavor === 'orion-ld' ? 501 : 201)
  })
})

describe('demo broker notifications switched off (an unreachable dashboard)', () => {
  it('records failures while unreachable and delivers again once reachable', async () => {
    const broker = await startDemoBroker()
    const receiver = await startReceiver()
    try {
      const id = await subscribe(broker, receiver)
      const control = (body: unknown) => fetch(`${broker.url}/__demo/notifications`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect((await control({ reachable: 'no' })).status).toBe(400)
      expect(await (await control({ reachable: false })).json()).toEqual({ reachable: false, silent: false })
      await patchTemperature(broker, weather1, 9)
      await broker.notificationsSettled()
      expect(receiver.received).toHaveLength(0)
      expect((await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)).body.notification).toMatchObject({ status: 'failed', lastFailure: expect.any(String) })
      await control({ reachable: true })
      await patchTemperature(broker, weather1, 10)
      await broker.notificationsSettled()
      expect(receiver.received).toHaveLength(1)
    } finally {
      await broker.close()
      await receiver.close()
    }
  })

  it('sends nothing and reports nothing while silent, and notifies again afterwards', async () => {
    const broker = await startDemoBroker()
    const receiver = await startReceiver()
    try {
      const id = await subscribe(broker, receiver)
      const control = (body: unknown) => fetch(`${broker.url}/__demo/notifications`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect((await control({})).status).toBe(400)
      expect(await (await control({ silent: true })).json()).toEqual({ reachable: true, silent: true })
      await patchTemperature(broker, weather1, 11)
      await broker.notificationsSettled()
      expect(receiver.received).toHaveLength(0)
      const { notification } = (await call(broker, 'GET', `/subscriptions/${encodeURIComponent(id)}`)).body
      expect(notification).not.toHaveProperty('lastFailure')
      expect(notification).not.toHaveProperty('lastNotification')
      await control({ silent: false })
      await patchTemperature(broker, weather1, 12)
      await broker.notificationsSettled()
      expect(receiver.received).toHaveLength(1)
    } finally {
      await broker.close()
      await receiver.close()
    }
  })
})

describe('demo broker live mode', () => {
  it('moves readings on its own and notifies subscribers', async () => {
    const broker = await startDemoBroker({ liveIntervalMs: 50 })
    const receiver = await startReceiver()
    try {
      await subscribe(broker, receiver, { entities: [{ type: 'AirQualityObserved' }], notification: { attributes: ['airQualityIndex', 'airQualityLevel'], endpoint: { uri: receiver.url } } })
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2)
      expect(receiver.received[0].body.data[0]).toMatchObject({ type: 'AirQualityObserved', airQualityIndex: { value: expect.any(Number) }, airQualityLevel: { value: expect.any(String) } })
    } finally {
      await broker.close()
      await receiver.close()
    }
  })
})
