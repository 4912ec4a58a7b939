import http from 'node:http'

import { beforeAll, describe, expect, inject, it } from 'vitest'

import type { SecurityServer } from './global-setup'
import { call, expectRefusal, servers } from './http'

// The live routes from outside: POST /api/ngsi-ld/notify/{token} takes only what the broker's
// subscription was given (its token, JSON, a Notification of that subscription, not too large);
// GET /api/live streams nothing of a members-only layer to an anonymous reader.

const brokerUrl = inject('securityBrokerUrl')
const MB = 1024 * 1024

type Prepared = { notifyPath: string; subscriptionId: string; publicLayer: number; staffLayer: number }
const prepared = new Map<string, Prepared>()

/** The subscription the server made for this file's public layer, as the broker holds it (the only place its token is). */
async function subscriptionFor(server: SecurityServer, layerId: number): Promise<{ id: string; endpoint: string }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const list = (await (await fetch(`${brokerUrl}/ngsi-ld/v1/subscriptions?limit=100`)).json()) as { id: string; subscriptionName?: string; notification: { endpoint: { uri: string } } }[]
    // Other files' layers are subscribed too (other types): this file's notifications go to its own layer's.
    const found = list.find((item) => item.notification.endpoint.uri.startsWith(`${server.baseUrl}/api/ngsi-ld/notify/`) && item.subscriptionName?.includes(`:layer:${layerId}:`))
    if (found) return { id: found.id, endpoint: found.notification.endpoint.uri }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no subscription for ${server.baseUrl}`)
}

/** The first events of a stream, read for `ms`; the status when it is refused. */
function readStream(url: string, ms: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      const timer = setTimeout(() => response.destroy(), ms)
      response.on('close', () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, text })
      })
    })
    request.on('error', reject)
  })
}

beforeAll(async () => {
  for (const server of servers()) {
    const layer = async (data: Record<string, unknown>) =>
      ((await (await call(server, 'admin', 'POST', '/api/map-layers', { entityType: 'WeatherObserved', attributes: ['temperature'], refreshSeconds: 60, maxFeatures: 1000, ...data })).json()) as { doc: { id: number } }).doc.id
    const publicLayer = await layer({ name: 'Live weather (security)', public: true })
    const staffLayer = await layer({ name: 'Live staff layer (security)', public: false })
    const { id, endpoint } = await subscriptionFor(server, publicLayer)
    prepared.set(server.name, { notifyPath: new URL(endpoint).pathname, subscriptionId: id, publicLayer, staffLayer })
  }
})

const notification = (subscriptionId: string) => ({ id: 'urn:ngsi-ld:Notification:1', type: 'Notification', subscriptionId, notifiedAt: new Date().toISOString(), data: [] })

describe.each(servers().map((server) => [server.name, server] as const))('the live routes (%s)', (_name, server) => {
  const the = () => prepared.get(server.name)!

  it('answers 404 {error} to every token but the subscription’s, whatever is sent', async () => {
    const token = the().notifyPath.split('/').pop()!
    const near = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const path of ['/api/ngsi-ld/notify/x', `/api/ngsi-ld/notify/${near}`, `/api/ngsi-ld/notify/${token}x`, `/api/ngsi-ld/notify/${token.toLowerCase()}`]) {
      const answer = await call(server, 'anonymous', 'POST', path, notification(the().subscriptionId))
      expect(JSON.parse(await expectRefusal(answer, 404)), path).toEqual({ error: 'Not found', requestId: expect.any(String) })
    }
    // A subscription's token with another subscription's id: still nothing to see.
    expect(await expectRefusal(await call(server, 'anonymous', 'POST', the().notifyPath, notification('urn:ngsi-ld:Subscription:other')), 404)).toContain('Not found')
  })

  it('takes JSON only (415), of a Notification shape (400), up to its size cap (413)', async () => {
    const path = the().notifyPath
    expect(await expectRefusal(await call(server, 'anonymous', 'POST', path, 'type=Notification', { 'content-type': 'application/x-www-form-urlencoded' }), 415)).toContain('application/json')
    expect(await expectRefusal(await call(server, 'anonymous', 'POST', path, JSON.stringify(notification(the().subscriptionId)), { 'content-type': 'text/plain' }), 415)).toContain('error')
    expect(await expectRefusal(await call(server, 'anonymous', 'POST', path, '{"type": "Notification", ', { 'content-type': 'application/json' }), 400)).toContain('JSON')
    for (const body of [{ type: 'Notification' }, { type: 'Subscription', subscriptionId: the().subscriptionId, data: [] }, { type: 'Notification', subscriptionId: the().subscriptionId, data: 'x' }, []]) {
      expect(JSON.parse(await expectRefusal(await call(server, 'anonymous', 'POST', path, body), 400))).toEqual({ error: expect.any(String), requestId: expect.any(String) })
    }
    const oversize = JSON.stringify({ ...notification(the().subscriptionId), data: [{ id: 'urn:x', type: 'T', padding: 'x'.repeat(17 * MB) }] })
    expect(await expectRefusal(await call(server, 'anonymous', 'POST', path, oversize, { 'content-type': 'application/json' }), 413)).toContain('larger than')
  })

  it('accepts the subscription’s own notification with 200 and a Content-Length (what every broker counts as delivered)', async () => {
    const answer = await call(server, 'anonymous', 'POST', the().notifyPath, notification(the().subscriptionId))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-length')).toMatch(/^\d+$/)
    expect(await answer.json()).toEqual({ accepted: 0 })
  })

  it('takes nothing a forged notification with the right token holds that was not subscribed: other types, future times', async () => {
    const forged = (data: Record<string, unknown>[]) => call(server, 'anonymous', 'POST', the().notifyPath, { ...notification(the().subscriptionId), data })
    const point = { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8, 43.46] } }
    const reading = (observedAt: string) => ({ type: 'Property', value: 99, observedAt })
    const cases = [
      // A type no layer of these servers subscribes to (other files' public layers are air quality and weather).
      [{ id: 'urn:ngsi-ld:ParkingSpot:forged', type: 'ParkingSpot', status: reading(new Date().toISOString()), location: point }],
      [{ id: 'urn:ngsi-ld:WeatherObserved:pinned', type: 'WeatherObserved', temperature: reading('2099-01-01T00:00:00Z'), location: point }],
      [{ id: 'urn:ngsi-ld:WeatherObserved:modified', type: 'WeatherObserved', modifiedAt: '2099-01-01T00:00:00Z', temperature: reading(new Date().toISOString()), location: point }],
      [{ id: 'urn:ngsi-ld:WeatherObserved:gone', type: 'WeatherObserved', deletedAt: '2099-01-01T00:00:00Z' }],
    ]
    for (const data of cases) {
      const answer = await forged(data)
      expect(answer.status).toBe(200)
      expect(await answer.json(), JSON.stringify(data)).toEqual({ accepted: 0 })
    }
    const features = await (await call(server, 'anonymous', 'GET', `/api/layers/${the().publicLayer}/features`)).text()
    expect(features).not.toMatch(/forged|pinned|modified/)
  })

  it('shows citizens what the broker holds, not what a forged notification says: no made-up station, value or removal', async () => {
    type Collection = { features: { id: string; properties: { temperature?: number } }[] }
    const layerData = async () => (await (await call(server, 'anonymous', 'GET', `/api/layers/${the().publicLayer}/features`)).json()) as Collection
    const [real, kept] = (await layerData()).features
    expect(kept).toBeDefined()
    const now = new Date().toISOString()
    const point = { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8, 43.46] } }
    const data = [
      // Of the subscribed type, dated now: it passes every check a notification alone allows.
      { id: 'urn:ngsi-ld:WeatherObserved:made-up-station', type: 'WeatherObserved', temperature: { type: 'Property', value: 66.6, observedAt: now }, location: point },
      { id: real!.id, type: 'WeatherObserved', temperature: { type: 'Property', value: -77.7, observedAt: now } },
      // A real station said to be deleted: the broker still holds it.
      { id: kept!.id, type: 'WeatherObserved', deletedAt: now },
    ]
    const answer = await call(server, 'anonymous', 'POST', the().notifyPath, { ...notification(the().subscriptionId), data })
    expect(await answer.json()).toEqual({ accepted: 3 })
    // Applied in the background: give it time to show, were it to.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const after = await layerData()
    expect(after.features.map((feature) => feature.id)).not.toContain('urn:ngsi-ld:WeatherObserved:made-up-station')
    expect(after.features.find((feature) => feature.id === real!.id)?.properties.temperature).toBe(real!.properties.temperature)
    expect(after.features.map((feature) => feature.id)).toContain(kept!.id)
  })

  it('streams nothing of a members-only layer to an anonymous reader, alone or beside a public one', async () => {
    for (const layers of [`${the().staffLayer}`, `${the().publicLayer},${the().staffLayer}`]) {
      const { status, text } = await readStream(`${server.baseUrl}/api/live?layers=${layers}`, 1500)
      expect(status, layers).toBe(404)
      expect(JSON.parse(text)).toEqual({ error: 'No such map layer', requestId: expect.any(String) })
    }
    const members = await readStream(`${server.baseUrl}/api/live?layers=${the().publicLayer}`, 1500)
    expect(members.status).toBe(200)
    expect(members.text).toContain('event: ready')
  })

  it('holds the per-address cap for streams asked for all at once (each passes the first check while the others are set up)', async () => {
    const openStreams = async () => ((await (await fetch(`${server.baseUrl}/api/health`)).json()) as { live: { streams: number } }).live.streams
    await expect.poll(openStreams, { timeout: 10_000 }).toBe(0)
    const answers = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<http.IncomingMessage>((resolve, reject) => {
            http.get(`${server.baseUrl}/api/live?layers=${the().publicLayer}`, resolve).on('error', reject)
          }),
      ),
    )
    const statuses = answers.map((answer) => answer.statusCode)
    for (const answer of answers) answer.destroy()
    expect(statuses.filter((status) => status === 200)).toHaveLength(20)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
    await expect.poll(openStreams, { timeout: 10_000 }).toBe(0)
  })

  it('counts out a client that hangs up while its stream is being set up, so hanging up fast never fills the caps', async () => {
    const openStreams = async () => ((await (await fetch(`${server.baseUrl}/api/health`)).json()) as { live: { streams: number } }).live.streams
    const hangUp = (afterHeaders: boolean) =>
      new Promise<void>((resolve) => {
        const request = http.get(`${server.baseUrl}/api/live?layers=${the().publicLayer}`, (response) => {
          response.destroy()
          resolve()
        })
        request.on('error', () => resolve())
        request.on('close', () => resolve())
        if (!afterHeaders) setImmediate(() => request.destroy())
      })
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 25 }, (_, index) => hangUp(index % 2 === 0)))
    await expect.poll(openStreams, { timeout: 10_000 }).toBe(0)
    const { status, text } = await readStream(`${server.baseUrl}/api/live?layers=${the().publicLayer}`, 1500)
    expect(status).toBe(200)
    expect(text).toContain('event: ready')
  })
})
