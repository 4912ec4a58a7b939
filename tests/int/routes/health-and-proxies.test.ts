import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { WeatherReport } from '@/upstreams'

import { authHeaders } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

const WEATHER_KEY = 'weather-secret-key-123'
const GEOCODING_KEY = 'geocoding-secret-key-456'

let app: PayloadApi

beforeAll(async () => {
  app = await startPayloadApi({
    broker: { flavor: 'orion-ld' },
    upstreams: { weatherKey: WEATHER_KEY, geocodingKey: GEOCODING_KEY },
    // The test client stands for one reverse proxy: its X-Forwarded-For names the client.
    env: { TRUST_PROXY: '1' },
    routes: ['/api/health', '/api/weather', '/api/geocode'],
    roles: ['viewer'],
  })
})

afterAll(() => app?.close())

const fromClient = (ip: string) => ({ 'x-forwarded-for': ip })

describe('GET /api/health', () => {
  // Earlier files of this database queue mail nobody sends (no job runner in tests): their jobs would make health "degraded".
  beforeAll(() => app.payload.delete({ collection: 'payload-jobs', where: { id: { exists: true } }, overrideAccess: true }))

  it('reports database and broker up, map unconfigured, with the app and broker versions to a member', async () => {
    const response = await fetch(`${app.baseUrl}/api/health`, { headers: authHeaders(app.tokens.viewer) })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ status: 'ok', database: true, broker: true, map: false, version: expect.any(String) })
    expect(body.checks.broker).toMatchObject({ ok: true, latencyMs: expect.any(Number), version: expect.any(String) })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('tells an anonymous caller the same states without any version', async () => {
    const response = await fetch(`${app.baseUrl}/api/health`)
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ status: 'ok', database: true, broker: true, map: false })
    expect(body).not.toHaveProperty('version')
    expect(body.checks.broker).not.toHaveProperty('version')
  })

  it('reports the jobs queues, and says degraded (still 200) once mail has waited longer than a minute', async () => {
    const fresh = (await (await fetch(`${app.baseUrl}/api/health`)).json()) as { jobs: Record<string, unknown> }
    expect(fresh.jobs).toMatchObject({ mail: { enabled: false, waiting: expect.any(Number), failedLastDay: expect.any(Number) }, other: { waiting: expect.any(Number) } })
    // A mail stuck for two minutes (no runner works the queue in tests), and one failed job.
    const stuck = await app.payload.jobs.queue({ task: 'sendMail', queue: 'email', input: { mail: { to: 'a@example.org' } } })
    const minutesAgo = new Date(Date.now() - 2 * 60_000).toISOString()
    await app.payload.db.updateOne({ collection: 'payload-jobs', id: stuck.id, data: { createdAt: minutesAgo } })
    const failed = await app.payload.jobs.queue({ task: 'sendMail', queue: 'default', input: { mail: { to: 'b@example.org' } } })
    await app.payload.db.updateOne({ collection: 'payload-jobs', id: failed.id, data: { hasError: true } })
    try {
      await new Promise((resolve) => setTimeout(resolve, 5_200))
      const response = await fetch(`${app.baseUrl}/api/health`)
      expect(response.status).toBe(200)
      const body = await response.json()
      expect(body).toMatchObject({ status: 'degraded', database: true, broker: true })
      expect(body.jobs.mail.waiting).toBeGreaterThanOrEqual(1)
      expect(body.jobs.mail.oldestWaitingSeconds).toBeGreaterThanOrEqual(119)
      expect(body.jobs.other.failedLastDay).toBeGreaterThanOrEqual(1)
      expect(JSON.stringify(body)).not.toContain('example.org')
    } finally {
      await app.payload.delete({ collection: 'payload-jobs', where: { id: { in: [stuck.id, failed.id] } }, overrideAccess: true })
    }
  })

  it('says broker: false (still 200) once the broker is gone and the cached result has expired', async () => {
    await app.broker.close()
    await new Promise((resolve) => setTimeout(resolve, 5_200))
    const response = await fetch(`${app.baseUrl}/api/health`)
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ status: 'degraded', database: true, broker: false })
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|stack/i)
  })
})

describe('GET /api/weather', () => {
  it('answers the reduced report and keeps the key on the server', async () => {
    const response = await fetch(`${app.baseUrl}/api/weather?lat=43.4623&lon=-3.80998`, { headers: fromClient('203.0.113.1') })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(WEATHER_KEY)
    expect(JSON.parse(text)).toMatchObject({ temperatureC: expect.any(Number) })
    expect(app.weather.requests.at(-1)?.query.appid).toBe(WEATHER_KEY)
  })

  it('serves repeated questions from the cache', async () => {
    const before = app.weather.requests.length
    for (let i = 0; i < 3; i++) await fetch(`${app.baseUrl}/api/weather?lat=43.4623&lon=-3.80998`, { headers: fromClient('203.0.113.2') })
    expect(app.weather.requests.length).toBe(before)
  })

  it("writes the condition in the reader's language, all languages from one upstream answer", async () => {
    const before = app.weather.requests.length
    const ask = async (lang?: string) => {
      const response = await fetch(`${app.baseUrl}/api/weather?lat=41.1579&lon=-8.6291${lang === undefined ? '' : `&lang=${lang}`}`, { headers: fromClient('203.0.113.5') })
      expect(response.status).toBe(200)
      return ((await response.json()) as WeatherReport).condition
    }
    // Porto's stand-in station: few clouds (801).
    expect(await ask('es')).toEqual({ code: 801, main: 'Clouds', description: 'poco nuboso', icon: '02d' })
    expect((await ask('pt'))?.description).toBe('pouco nublado')
    expect((await ask('en'))?.description).toBe('few clouds')
    // Without a language, the site's default (Spanish).
    expect((await ask())?.description).toBe('poco nuboso')
    expect(app.weather.requests.length).toBe(before + 1)
    expect(app.weather.requests.at(-1)?.query).not.toHaveProperty('lang')
  })

  it.each([
    ['', /lat/],
    ['?lat=91&lon=0', /lat/],
    ['?lat=abc&lon=0', /lat/],
    ['?lat=1&lon=181', /lon/],
    ['?lat=1&lon=1&lang=fr', /^lang: must be one of es, pt, en$/],
    ['?lat=1&lon=1&lang=', /^lang: must be one of es, pt, en$/],
    ['?lat=1&lon=1&lang=pt_br', /^lang: must be one of es, pt, en$/],
    ['?lat=1&lon=1&lang=EN', /^lang: must be one of es, pt, en$/],
  ])('refuses %s with 400 {error}', async (query, message) => {
    const response = await fetch(`${app.baseUrl}/api/weather${query}`, { headers: fromClient('203.0.113.3') })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatch(message)
  })

  it('maps upstream failures to 502 without leaking the key', async () => {
    app.weather.mode = 'server-error'
    try {
      const response = await fetch(`${app.baseUrl}/api/weather?lat=10&lon=10`, { headers: fromClient('203.0.113.4') })
      expect(response.status).toBe(502)
      const text = await response.text()
      expect(text).not.toContain(WEATHER_KEY)
      expect(JSON.parse(text)).toEqual({ error: expect.any(String), requestId: expect.any(String) })
    } finally {
      app.weather.mode = 'ok'
    }
  })

  it('limits each client, with Retry-After, without limiting the others', async () => {
    let refused: Response | undefined
    for (let i = 0; i < 70 && !refused; i++) {
      const response = await fetch(`${app.baseUrl}/api/weather?lat=1&lon=${i % 5}`, { headers: fromClient('198.51.100.7') })
      if (response.status === 429) refused = response
    }
    expect(refused?.status).toBe(429)
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await refused!.json()).error).toMatch(/too many requests/i)
    const other = await fetch(`${app.baseUrl}/api/weather?lat=1&lon=1`, { headers: fromClient('198.51.100.8') })
    expect(other.status).toBe(200)
  })
})

describe('GET /api/geocode', () => {
  it('answers places for a query and refuses bad ones', async () => {
    const response = await fetch(`${app.baseUrl}/api/geocode?q=Berlin`, { headers: fromClient('203.0.113.9') })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.results.length).toBeGreaterThan(0)
    expect(JSON.stringify(body)).not.toContain(GEOCODING_KEY)
    const bad = await fetch(`${app.baseUrl}/api/geocode?q=x`, { headers: fromClient('203.0.113.9') })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toMatch(/q/)
  })
})
