import { randomBytes } from 'node:crypto'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { freePort, startProcess, stopAll, waitForUrl } from '../../scripts/processes'
import { accounts, ensureAccounts, signIn } from '../helpers/accounts'
import { startCountingProxy } from '../int/helpers/countingProxy'
import { openEventStream } from '../int/helpers/eventStream'
import { migratedPostgresDatabase } from '../helpers/migratedDatabases'
import { type AppServer, startAppServer } from '../security/servers'

/*
 * Two production servers behind one imaginary load balancer: one PostgreSQL database, one Redis
 * (same key prefix), one APP_SECRET. The demo broker sits behind a counting proxy, so every broker
 * request of either replica is seen.
 */
const configured = Boolean(process.env.TEST_POSTGRES_URI && process.env.REDIS_URL)

type Replicas = { a: AppServer; b: AppServer }

describe.skipIf(!configured)('two replicas on one PostgreSQL and one Redis', () => {
  let replicas: Replicas
  let brokerUrl: string
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>
  let dropDatabase: () => Promise<void>
  let adminToken: string

  const setFault = (fault: 'slow' | null, delayMs?: number) =>
    fetch(`${brokerUrl}/__demo/fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault, delayMs }) })

  async function createLayer(name: string, token = adminToken, on = replicas.a) {
    const response = await fetch(`${on.baseUrl}/api/map-layers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, origin: on.baseUrl },
      body: JSON.stringify({ name, entityType: 'AirQualityObserved', attributes: ['name', 'no2'], public: true, refreshSeconds: 300, maxFeatures: 5000 }),
    })
    expect(response.status).toBe(201)
    return ((await response.json()) as { doc: { id: number } }).doc.id
  }

  const features = (server: AppServer, layerId: number) => fetch(`${server.baseUrl}/api/layers/${layerId}/features`)
  const entityRequestsOf = (layerType = 'AirQualityObserved') =>
    proxy.entityRequests().filter((request) => request.url.searchParams.get('type')?.includes(layerType))

  beforeAll(async () => {
    const brokerPort = await freePort()
    brokerUrl = `http://127.0.0.1:${brokerPort}`
    startProcess(path.join('node_modules', '.bin', 'tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort), '--entities', '3000'], { quiet: true })
    await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })
    proxy = await startCountingProxy(brokerUrl)

    const database = await migratedPostgresDatabase('replicas')
    dropDatabase = database.drop
    const shared = {
      APP_SECRET: randomBytes(32).toString('hex'),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: `citydash-replicas-${process.pid}-${Date.now()}:`,
      LOG_LEVEL: 'error',
    }
    const [a, b] = await Promise.all([0, 1].map(() => startAppServer({ databaseUri: database.uri, brokerUrl: proxy.url, env: shared })))
    replicas = { a, b }
    adminToken = (await ensureAccounts(a.baseUrl, ['admin', 'editor'])).admin.token
  })

  afterAll(async () => {
    replicas?.a.stop()
    replicas?.b.stop()
    await proxy?.close()
    stopAll()
    await dropDatabase?.()
  })

  it('load a cold layer from the broker once between them, however the requests are spread', async () => {
    const layerId = await createLayer('replicas single flight')
    const before = entityRequestsOf().length
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => features(i % 2 === 0 ? replicas.a : replicas.b, layerId)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200))
    const bodies = await Promise.all(answers.map(async (answer) => (await answer.json()) as { features: unknown[] }))
    expect(bodies[0]!.features.length).toBe(3000)
    expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1)

    const load = entityRequestsOf().slice(before)
    expect(load.length).toBeGreaterThan(0)
    // One load: every page requested once; a second load would repeat the first page.
    const pages = load.map((request) => request.url.search)
    expect(new Set(pages).size).toBe(pages.length)

    // Warm: neither replica asks the broker again.
    const warm = await Promise.all([features(replicas.a, layerId), features(replicas.b, layerId)])
    expect(warm.map((answer) => answer.status)).toEqual([200, 200])
    expect(entityRequestsOf().length).toBe(before + load.length)
  })

  it('count rate limits across both', async () => {
    // /api/geocode allows 30 requests per client per minute; the limit is counted before the query is read.
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await fetch(`${(i % 2 === 0 ? replicas.a : replicas.b).baseUrl}/api/geocode`)).status)
    expect(statuses).not.toContain(429)
    const overA = await fetch(`${replicas.a.baseUrl}/api/geocode`)
    const overB = await fetch(`${replicas.b.baseUrl}/api/geocode`)
    expect([overA.status, overB.status]).toEqual([429, 429])
    expect(((await overB.json()) as { error: string }).error).toBeTruthy()
  })

  it('accept on one the session signed in on the other, and refuse a forged one on both', async () => {
    const { token } = await signIn(replicas.a.baseUrl, accounts.editor)
    const me = await fetch(`${replicas.b.baseUrl}/api/users/me`, { headers: { authorization: `JWT ${token}` } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { user: { email: string } | null }).user?.email).toBe(accounts.editor.email)

    const forged = `${token.slice(0, -4)}AAAA`
    for (const server of [replicas.a, replicas.b]) {
      const answer = await fetch(`${server.baseUrl}/api/users/me`, { headers: { authorization: `JWT ${forged}` } })
      expect(((await answer.json()) as { user: unknown }).user ?? null).toBeNull()
    }
  })

  it('show on one an editor’s save on the other: the document at once, the layer data within seconds, loaded once', async () => {
    const { token: editorToken } = await signIn(replicas.a.baseUrl, accounts.editor)
    const layerId = await createLayer('replicas before save', editorToken)
    expect((await features(replicas.b, layerId)).status).toBe(200)

    const saved = await fetch(`${replicas.a.baseUrl}/api/map-layers/${layerId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `JWT ${editorToken}`, origin: replicas.a.baseUrl },
      body: JSON.stringify({ name: 'replicas after save', attributes: ['name', 'no2', 'airQualityLevel'] }),
    })
    expect(saved.status).toBe(200)

    const read = await fetch(`${replicas.b.baseUrl}/api/map-layers/${layerId}?depth=0`)
    expect(((await read.json()) as { name: string }).name).toBe('replicas after save')
    // Layer data follows within the layer documents' 5 s in-process cache (src/layers/entry/records.ts), loaded once.
    const before = entityRequestsOf().length
    const newShape = async (server: AppServer) => {
      const answer = await features(server, layerId)
      const body = (await answer.json()) as { features: { properties: Record<string, unknown> }[] }
      return answer.status === 200 && 'airQualityLevel' in body.features[0]!.properties ? answer.headers.get('etag') : undefined
    }
    await expect.poll(() => newShape(replicas.b), { timeout: 7_000, interval: 250 }).toBeTruthy()
    await expect.poll(() => newShape(replicas.a), { timeout: 7_000, interval: 250 }).toBe(await newShape(replicas.b))
    const pages = entityRequestsOf()
      .slice(before)
      .map((request) => request.url.search)
    expect(pages.length).toBeGreaterThan(0)
    expect(new Set(pages).size).toBe(pages.length)
  })

  it('render on one, at once, the citizen page an editor saved on the other, and a site-wide change on every page', async () => {
    const { token: editorToken } = await signIn(replicas.a.baseUrl, accounts.editor)
    const slug = `replicas-page-${Date.now()}`
    const write = (method: string, route: string, body: unknown, token = editorToken) =>
      fetch(`${replicas.a.baseUrl}${route}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, origin: replicas.a.baseUrl },
        body: JSON.stringify(body),
      })
    const created = await write('POST', '/api/pages', { title: 'Before the save', slug, _status: 'published' })
    expect(created.status).toBe(201)
    const pageId = ((await created.json()) as { doc: { id: number } }).doc.id
    // The document title: the page's title, then the site's (site settings).
    const titleOn = async (server: AppServer) => {
      const answer = await fetch(`${server.baseUrl}/${slug}`)
      expect(answer.status).toBe(200)
      return /<title>([^<]*)<\/title>/.exec(await answer.text())?.[1]
    }
    // Rendered once on each replica, then served from that replica's cache.
    for (const server of [replicas.a, replicas.b, replicas.b]) expect(await titleOn(server)).toMatch(/^Before the save · /)

    expect((await write('PATCH', `/api/pages/${pageId}`, { title: 'After the save' })).status).toBe(200)
    for (const server of [replicas.b, replicas.a]) expect(await titleOn(server)).toMatch(/^After the save · /)

    // Site settings reach every page's layout (revalidatePath('/', 'layout')).
    const siteTitle = `Replica city ${Date.now()}`
    expect((await write('POST', '/api/globals/site-settings', { title: siteTitle }, adminToken)).status).toBe(200)
    expect(await titleOn(replicas.b)).toBe(`After the save · ${siteTitle}`)
  })

  it('subscribe a public layer at the broker once between them, and push a change notified at one to a page streaming from the other', async () => {
    const layerId = await createLayer('replicas live')
    type Listed = { id: string; subscriptionName?: string; notification: { endpoint: { uri: string } } }
    const subscriptionsOfLayer = async () =>
      ((await (await fetch(`${brokerUrl}/ngsi-ld/v1/subscriptions?limit=100`)).json()) as Listed[]).filter((item) => item.subscriptionName?.endsWith(`:layer:${layerId}:`))
    // Both ask (a stream at each), one subscription results.
    const warmA = await openEventStream(`${replicas.a.baseUrl}/api/live?layers=${layerId}`)
    const warmB = await openEventStream(`${replicas.b.baseUrl}/api/live?layers=${layerId}`)
    await expect.poll(async () => (await subscriptionsOfLayer()).length, { timeout: 15_000 }).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await subscriptionsOfLayer()).toHaveLength(1)
    warmA.close()
    warmB.close()
    const [subscription] = await subscriptionsOfLayer()
    const notified = subscription!.notification.endpoint.uri.startsWith(replicas.a.baseUrl) ? replicas.a : replicas.b
    const other = notified === replicas.a ? replicas.b : replicas.a
    await features(other, layerId)
    const stream = await openEventStream(`${other.baseUrl}/api/live?layers=${layerId}`)
    await expect.poll(() => stream.events.map((event) => event.event)).toContain('ready')
    const station = 'urn:ngsi-ld:AirQualityObserved:santander-0007'
    const patched = await fetch(`${brokerUrl}/ngsi-ld/v1/entities/${encodeURIComponent(station)}/attrs`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ no2: { type: 'Property', value: 987.6 } }),
    })
    expect(patched.status).toBe(204)
    await expect.poll(() => stream.events.filter((event) => event.event === 'change').length, { timeout: 5_000 }).toBe(1)
    expect(stream.events.find((event) => event.event === 'change')!.data).toMatchObject({ upserted: [{ id: station, properties: { no2: 987.6 } }] })
    // And the other's cached layer has it too (one body in Redis for both).
    const body = (await (await features(other, layerId)).json()) as { features: { id: string; properties: { no2: number } }[] }
    expect(body.features.find((feature) => feature.id === station)?.properties.no2).toBe(987.6)
    stream.close()
  })

  it('keep answering every request on one when the other is killed in the middle of a cold load', async () => {
    const warmLayer = await createLayer('replicas warm')
    expect((await features(replicas.b, warmLayer)).status).toBe(200)
    const coldLayer = await createLayer('replicas cold')
    await setFault('slow', 1_500)
    try {
      const before = entityRequestsOf().length
      const onA = features(replicas.a, coldLayer).catch(() => 'killed' as const)
      await expect.poll(() => entityRequestsOf().length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(before)
      // B asks for the same layer while A holds the load lock, then A dies without releasing it.
      const onB = features(replicas.b, coldLayer)
      process.kill(-replicas.a.pid, 'SIGKILL')
      expect(await onA).toBe('killed')

      const started = Date.now()
      const during = await Promise.all([
        fetch(`${replicas.b.baseUrl}/api/map-layers?limit=1&depth=0`),
        features(replicas.b, warmLayer),
        fetch(`${replicas.b.baseUrl}/api/map-layers/${coldLayer}?depth=0`),
      ])
      expect(during.map((answer) => answer.status)).toEqual([200, 200, 200])
      const cold = await onB
      expect(cold.status).toBe(200)
      expect(((await cold.json()) as { features: unknown[] }).features.length).toBe(3000)
      // A dead holder's lock lapses (10 s); B then loads itself at the slowed broker.
      expect(Date.now() - started).toBeLessThan(60_000)
    } finally {
      await setFault(null)
    }
  })
})
