import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { type FakeGeocoding, startFakeGeocoding } from '../../demo/services/geocoding'
import { type FakeWeather, startFakeWeather } from '../../demo/services/weather'
import { ensureAccounts } from '../helpers/accounts'

import { expectRefusal } from './http'
import { type AppServer, startAppServer } from './servers'

/**
 * Rate limits key on the client's address. These servers are their own (SQLite, in-memory limits),
 * so spending 127.0.0.1's budgets here leaves the shared servers' budgets alone.
 */
type Setup = { server: AppServer; geocoding: FakeGeocoding; weather: FakeWeather; adminToken: string }

async function startServer(env: Record<string, string>): Promise<Setup> {
  const geocoding = await startFakeGeocoding()
  const weather = await startFakeWeather()
  const server = await startAppServer({
    databaseUri: `file:/tmp/citydash-sec-identity-${process.pid}-${Date.now()}.db`,
    brokerUrl: inject('securityBrokerUrl'),
    env: {
      GEOCODING_API_URL: geocoding.url,
      GEOCODING_API_KEY: geocoding.apiKey,
      WEATHER_API_URL: weather.url,
      WEATHER_API_KEY: weather.apiKey,
      ...env,
    },
  })
  const { admin } = await ensureAccounts(server.baseUrl, ['admin'])
  return { server, geocoding, weather, adminToken: admin.token }
}

async function stopServer(setup: Setup | undefined) {
  setup?.server.stop()
  await setup?.geocoding.close()
  await setup?.weather.close()
}

const geocode = (setup: Setup, q: string, forwardedFor?: string) =>
  fetch(`${setup.server.baseUrl}/api/geocode?q=${encodeURIComponent(q)}`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })

const ask = (setup: Setup, question: string, forwardedFor?: string) =>
  fetch(`${setup.server.baseUrl}/api/questions/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ question }),
  })

async function storedQuestions(setup: Setup, marker: string): Promise<number> {
  const response = await fetch(`${setup.server.baseUrl}/api/questions?where[question][like]=${marker}&limit=0`, {
    headers: { authorization: `JWT ${setup.adminToken}` },
  })
  return ((await response.json()) as { totalDocs: number }).totalDocs
}

/** A public layer of the broker's air-quality stations, created by the admin. */
async function publicLayer(setup: Setup): Promise<string | number> {
  const response = await fetch(`${setup.server.baseUrl}/api/map-layers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `JWT ${setup.adminToken}` },
    body: JSON.stringify({ name: `Downloads ${Date.now()}`, entityType: 'AirQualityObserved', attributes: ['name', 'no2'], public: true }),
  })
  const text = await response.text()
  expect(response.status, text).toBe(201)
  return (JSON.parse(text) as { doc: { id: string | number } }).doc.id
}

// Forged X-Forwarded-For values: rotating single addresses, comma lists, garbage.
const forgeries = (i: number) => [`10.1.${i}.1`, `203.0.113.${i}, 10.0.0.${i}`, `garbage-${i}`, ' , ,', `${i}.${i}.${i}.${i}, unknown`][i % 5] as string

describe('V13 API: forged client addresses do not reset rate limits (TRUST_PROXY off)', () => {
  let setup: Setup
  beforeAll(async () => {
    setup = await startServer({})
  }, 180_000)
  afterAll(() => stopServer(setup))

  it('refuses geocoding past 30 a minute whatever X-Forwarded-For says, and the upstream sees no more than 30 calls', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await geocode(setup, `place ${i}`, forgeries(i))).status)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true)
    expect(setup.geocoding.requests.length).toBeLessThanOrEqual(30)
  })

  it('refuses citizen questions past 5 whatever X-Forwarded-For says, and stores only 5', async () => {
    const marker = `forged${Date.now()}`
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      const response = await ask(setup, `Question ${marker} number ${i}?`, forgeries(i))
      statuses.push(response.status)
      if (response.status === 429) await expectRefusal(response, 429)
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429])
    expect(await storedQuestions(setup, marker)).toBe(5)
  })

  it('refuses whole-layer downloads past 20 a minute whatever X-Forwarded-For says, while the map and table reads go on', async () => {
    const id = await publicLayer(setup)
    const statuses: number[] = []
    for (let i = 0; i < 24; i++) {
      const format = i % 2 === 0 ? 'csv' : 'geojson'
      const response = await fetch(`${setup.server.baseUrl}/api/layers/${id}/features?format=${format}`, { headers: { 'x-forwarded-for': forgeries(i) } })
      statuses.push(response.status)
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        await expectRefusal(response, 429)
      } else await response.arrayBuffer()
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429, 429, 429, 429])
    const whole = await fetch(`${setup.server.baseUrl}/api/layers/${id}/features`)
    expect(whole.status).toBe(200)
    expect(((await whole.json()) as { meta: { count: number } }).meta.count).toBeGreaterThan(0)
    expect((await fetch(`${setup.server.baseUrl}/api/layers/${id}/features?offset=0&limit=10`)).status).toBe(200)
  })
})

describe('V13 API: TRUST_PROXY=1 keys clients by the address the proxy appended', () => {
  let setup: Setup
  beforeAll(async () => {
    setup = await startServer({ TRUST_PROXY: '1' })
  }, 180_000)
  afterAll(() => stopServer(setup))

  it('counts the rightmost X-Forwarded-For address, not what the client wrote left of it', async () => {
    const marker = `proxied${Date.now()}`
    const statuses: number[] = []
    // One client behind the proxy, forging a new leftmost address each time.
    for (let i = 0; i < 6; i++) statuses.push((await ask(setup, `Question ${marker} ${i}?`, `10.9.9.${i}, 198.51.100.7`)).status)
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
    // Another client behind the same proxy has its own budget.
    expect((await ask(setup, `Question ${marker} other?`, '198.51.100.8')).status).toBe(201)
    expect(await storedQuestions(setup, marker)).toBe(6)
  })
})

describe('V11 Business logic: one address flooding a limited route leaves everyone else their budget (TRUST_PROXY=1)', () => {
  let setup: Setup
  let layerId: string | number
  beforeAll(async () => {
    setup = await startServer({ TRUST_PROXY: '1' })
    layerId = await publicLayer(setup)
  }, 180_000)
  afterAll(() => stopServer(setup))

  /** Sends `count` requests as `client`, 20 at a time; every answer is read to its end. */
  async function flood(count: number, send: (i: number) => Promise<Response>) {
    const statuses: number[] = []
    for (let start = 0; start < count; start += 20) {
      const batch = Array.from({ length: Math.min(20, count - start) }, (_, k) => send(start + k))
      for (const response of await Promise.all(batch)) {
        statuses.push(response.status)
        await response.arrayBuffer()
      }
    }
    return statuses
  }

  // Each route with more requests than its overall budget (geocode 600, weather 1,200, downloads 200, questions 200).
  const routes: { name: string; overall: number; send: (setup: Setup, i: number, client: string) => Promise<Response> }[] = [
    { name: 'geocode', overall: 600, send: (s, i, client) => geocode(s, `flood ${i}`, client) },
    {
      name: 'weather',
      overall: 1_200,
      send: (s, i, client) => fetch(`${s.server.baseUrl}/api/weather?lat=43.46&lon=-3.8${i % 10}`, { headers: { 'x-forwarded-for': client } }),
    },
    {
      name: 'layer downloads',
      overall: 200,
      send: (s, _i, client) => fetch(`${s.server.baseUrl}/api/layers/${layerId}/features?format=csv`, { headers: { 'x-forwarded-for': client } }),
    },
    { name: 'questions', overall: 200, send: (s, i, client) => ask(s, `Flooded question number ${i}?`, client) },
  ]

  it.each(routes)('$name: past the overall budget from one address, another address is still served', async ({ overall, send }) => {
    const statuses = await flood(overall + 50, (i) => send(setup, i, '198.51.100.66'))
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(overall - 100)
    const other = await send(setup, 1, '198.51.100.99')
    expect(other.status, await other.clone().text()).not.toBe(429)
    expect(other.status).toBeLessThan(300)
  })
})

