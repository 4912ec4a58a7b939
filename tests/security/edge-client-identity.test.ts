import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { type FakeGeocoding, startFakeGeocoding } from '../../demo/services/geocoding'

import { accounts, createAccounts, login } from './accounts'
import { expectRefusal } from './http'
import { type AppServer, startAppServer } from './servers'

/**
 * Rate limits key on the client's address. These servers are their own (SQLite, in-memory limits),
 * so spending 127.0.0.1's budgets here leaves the shared servers' budgets alone.
 */
type Setup = { server: AppServer; geocoding: FakeGeocoding; adminToken: string }

async function startServer(env: Record<string, string>): Promise<Setup> {
  const geocoding = await startFakeGeocoding()
  const server = await startAppServer({
    databaseUri: `file:/tmp/citydash-sec-identity-${process.pid}-${Date.now()}.db`,
    brokerUrl: inject('securityBrokerUrl'),
    env: { GEOCODING_API_URL: geocoding.url, GEOCODING_API_KEY: geocoding.apiKey, ...env },
  })
  await createAccounts(server.baseUrl)
  return { server, geocoding, adminToken: await login(server.baseUrl, accounts.admin) }
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
  afterAll(async () => {
    setup?.server.stop()
    await setup?.geocoding.close()
  })

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
  afterAll(async () => {
    setup?.server.stop()
    await setup?.geocoding.close()
  })

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
