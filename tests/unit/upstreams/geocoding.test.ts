import { inspect } from 'node:util'

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'

import { UpstreamError, geocode, geocodeCacheKey, geocodeQuerySchema, type GeocodeResult } from '@/upstreams'

import { startFakeGeocoding, type FakeGeocoding } from '../../../demo/services/geocoding'

let fake: FakeGeocoding

beforeAll(async () => {
  fake = await startFakeGeocoding()
})

afterAll(async () => {
  await fake.close()
})

beforeEach(() => {
  fake.mode = 'ok'
  fake.retryAfter = undefined
  fake.requests.length = 0
})

const call = (overrides: Partial<Parameters<typeof geocode>[0]> = {}) =>
  geocode({ baseUrl: fake.url, apiKey: fake.apiKey, q: 'Berlin', timeoutMs: 2_000, ...overrides })

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(UpstreamError)
  return error as UpstreamError
}

function expectNoKey(error: unknown, key = fake.apiKey) {
  const renderings = [String(error), (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 5 })]
  for (const text of renderings) expect(text).not.toContain(key)
}

describe('geocode against the fake OpenCage', () => {
  it('reduces results to the documented shape', async () => {
    const response = await call()
    expect(response).toEqual({
      results: [
        {
          label: 'Berlin, Germany',
          lat: 52.5170365,
          lon: 13.3888599,
          type: 'city',
          countryCode: 'DE',
          confidence: 4,
          bounds: [13.1888599, 52.4170365, 13.5888599, 52.6170365],
        } satisfies GeocodeResult,
      ],
    })
    expect(JSON.stringify(response)).not.toMatch(/annotations|licenses|rate|thanks|Europe\/Berlin/)
  })

  it('sends the documented request', async () => {
    await call({ q: '  Paris   Texas ', limit: '2', language: 'de' })
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/geocode/v1/json',
      query: { q: 'Paris Texas', key: fake.apiKey, limit: '2', no_annotations: '1', no_record: '1', language: 'de' },
    })
  })

  it('returns several matches and honours the limit', async () => {
    expect((await call({ q: 'Paris' })).results.map((r) => r.countryCode)).toEqual(['FR', 'US'])
    expect((await call({ q: 'Paris', limit: 1 })).results).toHaveLength(1)
  })

  it('bounds the search to a box: sends it as `bounds` and drops what lies outside', async () => {
    const santander = [-4.0, 43.3, -3.6, 43.6] as [number, number, number, number]
    const found = await call({ q: 'Sardinero', bbox: santander })
    expect(found.results.map((r) => r.label)).toEqual(['Playa del Sardinero, 39005 Santander, Spain'])
    expect(fake.requests[0].query.bounds).toBe('-4,43.3,-3.6,43.6')
    // Porto is another city: nothing there from Santander's box, though the gazetteer knows it.
    expect((await call({ q: 'Porto', bbox: santander })).results).toEqual([])
    expect((await call({ q: 'Porto' })).results.length).toBeGreaterThan(0)
    // An upstream that ignores `bounds` (the stand-in with the box unread): results outside are still dropped.
    fake.mode = 'junk-results'
    expect((await call({ q: 'Berlin', bbox: santander })).results).toEqual([])
  })

  it('answers no match with an empty list', async () => {
    expect(await call({ q: 'Atlantis' })).toEqual({ results: [] })
  })

  it('drops malformed results and cleans odd fields', async () => {
    fake.mode = 'junk-results'
    const { results } = await call()
    expect(results).toEqual([
      { label: 'Berlin, Germany', lat: 52.5, lon: 13.4, type: 'city', countryCode: 'DE', confidence: 4, bounds: [13.2, 52.4, 13.6, 52.6] },
      { label: 'Odd place', lat: 1, lon: 2, type: null, countryCode: null, confidence: null, bounds: null },
    ])
  })

  it('refuses without a key (503) and sends nothing', async () => {
    for (const apiKey of [undefined, '', ' ']) {
      expect(await failure(call({ apiKey }))).toMatchObject({ status: 503, message: 'Geocoding service is not configured' })
    }
    expect(fake.requests).toHaveLength(0)
  })

  it('maps an invalid key to 502', async () => {
    const wrong = await failure(call({ apiKey: 'wrong-key-123' }))
    expect(wrong).toMatchObject({ status: 502, reason: 'rejected-key', upstreamStatus: 401 })
    expectNoKey(wrong, 'wrong-key-123')
    fake.mode = 'invalid-key'
    expectNoKey(await failure(call()))
  })

  it('maps 429 and 402 (quota) to 429 with Retry-After', async () => {
    fake.mode = 'rate-limit'
    fake.retryAfter = '5'
    expect(await failure(call())).toMatchObject({ status: 429, retryAfterSeconds: 5 })
    fake.mode = 'quota'
    const quota = await failure(call())
    expect(quota).toMatchObject({ status: 429, reason: 'rate-limited', upstreamStatus: 402, retryAfterSeconds: 60 })
    expectNoKey(quota)
  })

  it('maps a 5xx echoing the request to 502 without the key', async () => {
    fake.mode = 'server-error'
    const error = await failure(call())
    expect(error).toMatchObject({ status: 502, reason: 'upstream-error', upstreamStatus: 503, message: 'Geocoding service is unavailable' })
    expectNoKey(error)
  })

  it('times out with 504', async () => {
    fake.mode = 'slow'
    fake.delayMs = 1_000
    const error = await failure(call({ timeoutMs: 100 }))
    expect(error).toMatchObject({ status: 504, reason: 'timeout' })
    expectNoKey(error)
  })

  it('refuses garbage and the wrong shape with 502', async () => {
    for (const mode of ['garbage', 'wrong-shape'] as const) {
      fake.mode = mode
      const error = await failure(call())
      expect(error).toMatchObject({ status: 502, reason: 'bad-response' })
      expectNoKey(error)
    }
  })

  it('rejects unusable queries before any request', async () => {
    await expect(call({ q: 'x' })).rejects.toBeInstanceOf(ZodError)
    await expect(call({ q: 'Ber\u0000lin' })).rejects.toBeInstanceOf(ZodError)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('geocodeQuerySchema', () => {
  it('trims, collapses spaces and defaults the limit', () => {
    expect(geocodeQuerySchema.parse({ q: '  Unter  den\u00a0Linden ' })).toEqual({ q: 'Unter den Linden', limit: 5 })
    expect(geocodeQuerySchema.parse({ q: 'Köln', limit: '10', language: 'pt-BR' })).toEqual({ q: 'Köln', limit: 10, language: 'pt-BR' })
  })

  it('accepts 2 to 200 characters', () => {
    expect(geocodeQuerySchema.safeParse({ q: 'ab' }).success).toBe(true)
    expect(geocodeQuerySchema.safeParse({ q: 'a'.repeat(200) }).success).toBe(true)
    expect(geocodeQuerySchema.safeParse({ q: 'a'.repeat(201) }).success).toBe(false)
    expect(geocodeQuerySchema.safeParse({ q: ' a ' }).success).toBe(false)
  })

  it.each([
    [{ q: 'Ber\tlin' }, 'control characters'],
    [{ q: 'Ber\u007flin' }, 'control characters'],
    [{ q: 'Ber\u0085lin' }, 'control characters'],
    [{}, 'is required'],
    [{ q: 42 }, 'is required'],
    [{ q: 'Berlin', limit: 0 }, 'must be a whole number from 1 to 10'],
    [{ q: 'Berlin', limit: '11' }, 'must be a whole number from 1 to 10'],
    [{ q: 'Berlin', limit: '2.5' }, 'must be a whole number from 1 to 10'],
    [{ q: 'Berlin', language: 'german!' }, 'language tag'],
  ])('rejects %j (%s)', (input, message) => {
    const result = geocodeQuerySchema.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message).join('; ')).toContain(message)
  })

  it('takes a city-sized bbox as "west,south,east,north" and refuses any other', () => {
    expect(geocodeQuerySchema.parse({ q: 'Pereda', bbox: '-3.96, 43.31,-3.66,43.61' }).bbox).toEqual([-3.96, 43.31, -3.66, 43.61])
    for (const bbox of ['', '1,2,3', '1,2,3,4,5', 'a,b,c,d', '-3.6,43.3,-4.0,43.6', '-4,43.6,-3.6,43.3', '-190,0,-179,1', '0,89,1,91', '-10,40,0,50', '1e2,0,1e2,1', 'NaN,0,1,1', 'x'.repeat(500)]) {
      const result = geocodeQuerySchema.safeParse({ q: 'Pereda', bbox })
      expect(result.success, bbox).toBe(false)
      expect(result.error?.issues.map((issue) => issue.message).join('; ')).toContain('west,south,east,north')
    }
  })

  it('gives each box its own cache key', () => {
    const plain = geocodeQuerySchema.parse({ q: 'Pereda' })
    const bounded = geocodeQuerySchema.parse({ q: 'Pereda', bbox: '-4,43.3,-3.6,43.6' })
    const elsewhere = geocodeQuerySchema.parse({ q: 'Pereda', bbox: '-8.8,41,-8.4,41.3' })
    expect(new Set([plain, bounded, elsewhere].map(geocodeCacheKey)).size).toBe(3)
  })

  it('gives case-variants one cache key', () => {
    const a = geocodeQuerySchema.parse({ q: 'berlin  mitte' })
    const b = geocodeQuerySchema.parse({ q: 'Berlin Mitte ' })
    expect(geocodeCacheKey(a)).toBe(geocodeCacheKey(b))
    expect(geocodeCacheKey(geocodeQuerySchema.parse({ q: 'Berlin', language: 'de' }))).not.toBe(geocodeCacheKey(a))
  })
})
