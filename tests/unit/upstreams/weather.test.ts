import { inspect } from 'node:util'

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ZodError } from 'zod'

import { LOCALES } from '@/i18n/locales'
import en from '@/i18n/messages/en.json'
import es from '@/i18n/messages/es.json'
import pt from '@/i18n/messages/pt.json'
import {
  type ConditionTexts,
  conditionText,
  UpstreamError,
  fetchWeather,
  reportInLanguage,
  weatherCacheKey,
  weatherQuerySchema,
  weatherRequestSchema,
  type WeatherReport,
} from '@/upstreams'
import { withErrorHandling } from '@/server/errors'

import { startFakeWeather, type FakeWeather } from '../../../demo/services/weather'

let fake: FakeWeather

beforeAll(async () => {
  fake = await startFakeWeather()
})

afterAll(async () => {
  await fake.close()
})

beforeEach(() => {
  fake.mode = 'ok'
  fake.retryAfter = undefined
  fake.requests.length = 0
})

const call = (overrides: Partial<Parameters<typeof fetchWeather>[0]> = {}) =>
  fetchWeather({ baseUrl: fake.url, apiKey: fake.apiKey, lat: 52.52, lon: 13.405, timeoutMs: 2_000, ...overrides })

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(UpstreamError)
  return error as UpstreamError
}

/** The key must not surface anywhere an error might be printed or serialised. */
function expectNoKey(error: unknown, key = fake.apiKey) {
  const renderings = [String(error), (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 5 })]
  for (const text of renderings) expect(text).not.toContain(key)
}

describe('fetchWeather against the fake OpenWeatherMap', () => {
  it('reduces the upstream answer to the documented report', async () => {
    const report = await call()
    expect(report).toEqual<WeatherReport>({
      location: { lat: 52.52, lon: 13.405, name: 'Fakeburg', country: 'DE' },
      observedAt: '2024-06-01T12:00:00.000Z',
      temperatureC: 20.3,
      feelsLikeC: 19.3,
      humidityPercent: 62,
      pressureHpa: 1016,
      windSpeedMs: 4.1,
      windDirectionDeg: 250,
      windGustMs: 7.3,
      cloudinessPercent: 75,
      visibilityM: 10000,
      rain1hMm: 0.25,
      snow1hMm: null,
      condition: { code: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' },
    })
    // Nothing else of the upstream body passes through.
    expect(JSON.stringify(report)).not.toMatch(/stations|sunrise|timezone|"cod"|2950159/)
  })

  it('sends the documented request', async () => {
    await call({ lat: '48.137154', lon: '11.576124' })
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/data/2.5/weather',
      query: { lat: '48.1372', lon: '11.5761', units: 'metric', appid: fake.apiKey },
    })
    // No `lang`: one answer serves every language (the condition is written from its code, reportInLanguage).
    expect(fake.requests[0]?.query).not.toHaveProperty('lang')
    expect(fake.requests[0]?.headers.accept).toBe('application/json')
  })

  it('joins a base URL with a path and trailing slash', async () => {
    await expect(call({ baseUrl: `${fake.url}/owm/` })).rejects.toMatchObject({ status: 502, reason: 'rejected-request', upstreamStatus: 404 })
    expect(fake.requests[0]?.path).toBe('/owm/data/2.5/weather')
  })

  it('uses an injected fetch', async () => {
    const fetchStub = vi.fn(async (input: string | URL) => {
      expect(String(input)).toMatch(/^https:\/\/weather\.example\/data\/2\.5\/weather\?/)
      return Response.json({ coord: { lat: 1, lon: 2 }, main: { temp: 3 }, dt: 1 })
    })
    const report = await fetchWeather({ baseUrl: 'https://weather.example', apiKey: 'k', lat: 1, lon: 2, fetch: fetchStub })
    expect(report).toMatchObject({ temperatureC: 3, condition: null, humidityPercent: null, location: { name: null, country: null } })
    expect(fetchStub).toHaveBeenCalledTimes(1)
  })

  it('refuses without a key (503) and sends nothing', async () => {
    for (const apiKey of [undefined, '', '   ']) {
      const error = await failure(call({ apiKey }))
      expect(error).toMatchObject({ status: 503, reason: 'not-configured', message: 'Weather service is not configured' })
    }
    const badBase = await failure(call({ baseUrl: 'ftp://weather.example' }))
    expect(badBase.status).toBe(503)
    expect(fake.requests).toHaveLength(0)
  })

  it('maps an invalid key (401) to 502', async () => {
    const wrongKey = await failure(call({ apiKey: 'not-the-key' }))
    expect(wrongKey).toMatchObject({ status: 502, reason: 'rejected-key', upstreamStatus: 401 })
    expectNoKey(wrongKey, 'not-the-key')
    fake.mode = 'invalid-key'
    const error = await failure(call())
    expect(error).toMatchObject({ status: 502, message: 'Weather service rejected the configured credentials' })
    expectNoKey(error)
  })

  it('passes an upstream rate limit on as 429 with Retry-After', async () => {
    fake.mode = 'rate-limit'
    const withoutHeader = await failure(call())
    expect(withoutHeader).toMatchObject({ status: 429, reason: 'rate-limited', retryAfterSeconds: 60 })
    fake.retryAfter = '30'
    expect(await failure(call())).toMatchObject({ status: 429, retryAfterSeconds: 30 })
    fake.retryAfter = new Date(Date.now() + 120_000).toUTCString()
    const dated = await failure(call())
    expect(dated.retryAfterSeconds).toBeGreaterThanOrEqual(118)
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(121)
    expectNoKey(dated)
  })

  it('maps upstream 5xx to 502 without echoing its body', async () => {
    fake.mode = 'server-error'
    const error = await failure(call())
    expect(error).toMatchObject({ status: 502, reason: 'upstream-error', upstreamStatus: 500, message: 'Weather service is unavailable' })
    expectNoKey(error)
  })

  it('times out slow answers and slow bodies with 504', async () => {
    fake.mode = 'slow'
    fake.delayMs = 1_000
    const started = Date.now()
    const slow = await failure(call({ timeoutMs: 100 }))
    expect(slow).toMatchObject({ status: 504, reason: 'timeout', message: 'Weather service did not answer in time' })
    expect(Date.now() - started).toBeLessThan(800)
    fake.mode = 'slow-body'
    expect(await failure(call({ timeoutMs: 100 }))).toMatchObject({ status: 504, reason: 'timeout' })
    expectNoKey(slow)
  })

  it('refuses garbage, the wrong shape and oversized bodies with 502', async () => {
    for (const mode of ['garbage', 'wrong-shape', 'huge'] as const) {
      fake.mode = mode
      const error = await failure(call())
      expect(error).toMatchObject({ status: 502, reason: 'bad-response', message: 'Weather service returned an invalid response' })
      expectNoKey(error)
    }
  })

  it('does not follow redirects (the key is in the query)', async () => {
    fake.mode = 'redirect'
    const error = await failure(call())
    expect(error).toMatchObject({ status: 502, reason: 'unreachable' })
    expect(fake.requests.map((r) => r.path)).toEqual(['/data/2.5/weather'])
    expectNoKey(error)
  })

  it('reports an unreachable upstream as 502 without the URL', async () => {
    const error = await failure(call({ baseUrl: 'http://127.0.0.1:1' }))
    expect(error).toMatchObject({ status: 502, reason: 'unreachable', message: 'Weather service could not be reached' })
    expectNoKey(error)
  })

  it('keeps a key out of errors even when fetch itself fails with the URL', async () => {
    const leaky = async (input: string | URL): Promise<Response> => {
      throw new TypeError(`Failed to parse URL from ${String(input)}`)
    }
    const error = await failure(call({ fetch: leaky }))
    expect(error.reason).toBe('unreachable')
    expectNoKey(error)
  })

  it('rejects coordinates out of range before any request', async () => {
    await expect(call({ lat: 91 })).rejects.toBeInstanceOf(ZodError)
    await expect(call({ lon: '-181' })).rejects.toBeInstanceOf(ZodError)
    expect(fake.requests).toHaveLength(0)
  })

  it('becomes the right JSON answer through withErrorHandling', async () => {
    fake.mode = 'rate-limit'
    fake.retryAfter = '12'
    const handler = withErrorHandling(async () => Response.json(await call()))
    const response = await handler(new Request('http://dashboard.test/api/weather?lat=1&lon=2'))
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('12')
    const body = await response.text()
    expect(JSON.parse(body)).toEqual({ error: 'Weather service is rate limited; try again later', requestId: expect.any(String) })
    expect(body).not.toContain(fake.apiKey)
  })
})

describe('weatherQuerySchema', () => {
  it('accepts numbers and numeric text, rounded to 4 decimals', () => {
    expect(weatherQuerySchema.parse({ lat: '52.520008', lon: ' 13.404954 ' })).toEqual({ lat: 52.52, lon: 13.405 })
    expect(weatherQuerySchema.parse({ lat: -90, lon: 180 })).toEqual({ lat: -90, lon: 180 })
    expect(weatherQuerySchema.parse({ lat: '-0.00001', lon: '.5' })).toEqual({ lat: 0, lon: 0.5 })
    expect(Object.is(weatherQuerySchema.parse({ lat: '-0.00001', lon: 0 }).lat, 0)).toBe(true)
  })

  it.each([
    [{ lat: '', lon: 0 }],
    [{ lat: 'abc', lon: 0 }],
    [{ lat: '1e2', lon: 0 }],
    [{ lat: '0x10', lon: 0 }],
    [{ lat: 90.0001, lon: 0 }],
    [{ lat: 0, lon: -180.5 }],
    [{ lat: Number.NaN, lon: 0 }],
    [{ lat: Number.POSITIVE_INFINITY, lon: 0 }],
    [{ lat: null, lon: 0 }],
    [{ lon: 0 }],
    [{ lat: [1], lon: 0 }],
  ])('rejects %j', (input) => {
    expect(weatherQuerySchema.safeParse(input).success).toBe(false)
  })

  it('gives equal queries equal cache keys', () => {
    const a = weatherQuerySchema.parse({ lat: '52.52000001', lon: 13.405 })
    const b = weatherQuerySchema.parse({ lat: 52.52, lon: '13.40499' })
    expect(weatherCacheKey(a)).toBe('weather:52.52:13.405')
    expect(weatherCacheKey(b)).toBe(weatherCacheKey(a))
  })
})

describe('weatherRequestSchema', () => {
  it("takes the reader's language among the site's locales, the default one when not said", () => {
    expect(weatherRequestSchema.parse({ lat: '43.4623', lon: '-3.81' })).toEqual({ lat: 43.4623, lon: -3.81, lang: 'es' })
    for (const lang of LOCALES) expect(weatherRequestSchema.parse({ lat: 0, lon: 0, lang }).lang).toBe(lang)
    // The cache key is the point's: every language shares one upstream answer.
    expect(weatherCacheKey(weatherRequestSchema.parse({ lat: 1, lon: 2, lang: 'pt' }))).toBe(weatherCacheKey(weatherRequestSchema.parse({ lat: 1, lon: 2, lang: 'en' })))
  })

  it.each(['', 'fr', 'EN', 'pt_br', 'pt-PT', 'es ', 'sp', '__proto__'])('refuses lang %j, naming the locales', (lang) => {
    const result = weatherRequestSchema.safeParse({ lat: 0, lon: 0, lang })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]).toMatchObject({ path: ['lang'], message: 'must be one of es, pt, en' })
  })
})

// OpenWeatherMap's documented condition codes (https://openweathermap.org/weather-conditions).
const DOCUMENTED_CODES = [
  200, 201, 202, 210, 211, 212, 221, 230, 231, 232, 300, 301, 302, 310, 311, 312, 313, 314, 321, 500, 501, 502, 503, 504, 511, 520, 521, 522, 531, 600, 601, 602, 611, 612,
  613, 615, 616, 620, 621, 622, 701, 711, 721, 731, 741, 751, 761, 762, 771, 781, 800, 801, 802, 803, 804,
]
const catalogues: Record<string, ConditionTexts> = { es: es.weatherConditions, pt: pt.weatherConditions, en: en.weatherConditions }

describe("weather conditions in the reader's language", () => {
  it.each(Object.keys(catalogues))('%s has a text for every documented code, and one for each group', (locale) => {
    const texts = catalogues[locale]!
    expect(Object.keys(texts.codes).map(Number).sort((a, b) => a - b)).toEqual(DOCUMENTED_CODES)
    expect(Object.keys(texts.groups).sort()).toEqual(['2', '3', '5', '6', '7', '8'])
  })

  it("writes a code's own text, else its group's, else nothing", () => {
    expect(conditionText(803, catalogues.es!)).toBe('muy nuboso')
    expect(conditionText(803, catalogues.pt!)).toBe('muito nublado')
    expect(conditionText(803, catalogues.en!)).toBe('broken clouds')
    expect(conditionText(500, catalogues.pt!)).toBe('chuva fraca')
    // A code the catalogue does not list (OpenWeatherMap may add some) reads as its group.
    expect(conditionText(599, catalogues.es!)).toBe('lluvia')
    expect(conditionText(809, catalogues.pt!)).toBe('nublado')
    expect(conditionText(905, catalogues.en!)).toBeUndefined()
    expect(conditionText(-1, catalogues.en!)).toBeUndefined()
  })

  it("gives the report the reader's text, and leaves the upstream's where the catalogue has none", () => {
    const report = (code: number, description = 'broken clouds'): WeatherReport => ({
      location: { lat: 43.46, lon: -3.81, name: 'Santander', country: 'ES' },
      observedAt: '2024-06-01T12:00:00.000Z',
      temperatureC: 16.4,
      feelsLikeC: null,
      humidityPercent: null,
      pressureHpa: null,
      windSpeedMs: null,
      windDirectionDeg: null,
      windGustMs: null,
      cloudinessPercent: null,
      visibilityM: null,
      rain1hMm: null,
      snow1hMm: null,
      condition: { code, main: 'Clouds', description, icon: '04d' },
    })
    const upstream = report(803)
    expect(reportInLanguage(upstream, catalogues.pt!)).toEqual({ ...upstream, condition: { code: 803, main: 'Clouds', description: 'muito nublado', icon: '04d' } })
    // The cached answer is not changed: the next reader may read another language.
    expect(upstream.condition?.description).toBe('broken clouds')
    const unknown = report(905, 'hurricane')
    expect(reportInLanguage(unknown, catalogues.es!)).toBe(unknown)
    const none = { ...upstream, condition: null }
    expect(reportInLanguage(none, catalogues.es!)).toBe(none)
  })
})
