import { afterEach, describe, expect, it } from 'vitest'

import { NgsiClient, NgsiError, type NgsiClientOptions } from '@/ngsi'

import { delay, makeEntities, sendJson, startServer, type Handler, type RecordedRequest, type TestServer } from './helpers'

const ERRORS = 'https://uri.etsi.org/ngsi-ld/errors/'

interface FakeBroker {
  total: number
  /** Send NGSILD-Results-Count when count=true. */
  count?: boolean
  /** Scorpio/Stellio style next links. */
  links?: boolean
  /** Largest accepted limit and how a larger one is refused. */
  maxLimit?: number
  refuse?: 'scorpio' | 'orion-ld'
  delayMs?: number
  /** Shift pages by one so consecutive pages overlap (entities inserted while paging). */
  overlap?: boolean
  /** Return at most this many entities per page, whatever the limit. */
  silentCap?: number
  /** Answer with this error for requests matching. */
  failWhen?: (request: RecordedRequest) => boolean
  /** Answer 200 with a cut-off JSON body for requests matching. */
  garbleWhen?: (request: RecordedRequest) => boolean
}

function fakeBroker(options: FakeBroker): Handler {
  const entities = makeEntities(options.total)
  return async (request, response) => {
    const params = request.url.searchParams
    const limit = Number(params.get('limit') ?? 20)
    const offset = Number(params.get('offset') ?? 0)
    if (options.delayMs) await delay(options.delayMs)
    if (options.failWhen?.(request)) return sendJson(response, 400, { type: `${ERRORS}BadRequestData`, title: 'Bad Request Data', detail: 'scripted failure' })
    if (options.maxLimit !== undefined && limit > options.maxLimit) {
      return options.refuse === 'orion-ld'
        ? sendJson(response, 400, { type: `${ERRORS}BadRequestData`, title: 'Invalid value for URI parameter /limit/', detail: `must be an integer value <= ${options.maxLimit}` })
        : sendJson(response, 403, { type: `${ERRORS}TooManyResults`, title: 'Too many results', detail: `limit above ${options.maxLimit}` })
    }
    if (options.garbleWhen?.(request)) {
      response.writeHead(200, { 'content-type': 'application/json' })
      return void response.end('[{"id":"urn:ngsi-ld:Thing:cut","type":')
    }
    const start = options.overlap && offset > 0 ? offset - 1 : offset
    const page = entities.slice(start, start + Math.min(limit, options.silentCap ?? limit))
    const headers: Record<string, string | string[]> = {}
    if (options.count && params.get('count') === 'true') headers['NGSILD-Results-Count'] = String(options.total)
    if (options.links && offset + limit < options.total) {
      const next = new URLSearchParams(params)
      next.set('offset', String(offset + limit))
      next.delete('count')
      headers.Link = [
        '<https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"',
        `</ngsi-ld/v1/entities?${next}>; rel="next"; type="application/ld+json"`,
      ]
    }
    sendJson(response, 200, page, headers)
  }
}

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function clientFor(broker: FakeBroker, options: Partial<NgsiClientOptions> = {}) {
  server = await startServer(fakeBroker(broker))
  return new NgsiClient({ brokerUrl: server.url, retries: 0, ...options })
}

const ids = (entities: { id: string }[]) => entities.map((entity) => entity.id)
const expected = (count: number) => ids(makeEntities(count))
const param = (request: RecordedRequest, name: string) => request.url.searchParams.get(name)

describe('paging', () => {
  it('follows next links sequentially', async () => {
    const client = await clientFor({ total: 25, count: true, links: true }, { maxPageSize: 10 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(25))
    expect(result).toMatchObject({ total: 25, truncated: false })
    const requests = server!.requests
    expect(requests.map((request) => [param(request, 'offset'), param(request, 'limit'), param(request, 'count')])).toEqual([
      [null, '10', 'true'],
      ['10', '10', null],
      ['20', '10', null],
    ])
    expect(server!.maxConcurrent).toBe(1)
  })

  it('fetches the remaining offsets in parallel, never above pageConcurrency', async () => {
    const client = await clientFor({ total: 95, count: true, delayMs: 40 }, { maxPageSize: 10, pageConcurrency: 3 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(95))
    expect(result).toMatchObject({ total: 95, truncated: false })
    expect(server!.requests).toHaveLength(10)
    expect(param(server!.requests[0], 'count')).toBe('true')
    expect(server!.requests.slice(1).map((request) => Number(param(request, 'offset'))).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90])
    expect(server!.maxConcurrent).toBeLessThanOrEqual(3)
    expect(server!.maxConcurrent).toBeGreaterThan(1)
  })

  it('steps the offset until a short page when there is neither count nor link', async () => {
    const client = await clientFor({ total: 23 }, { maxPageSize: 10 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(23))
    expect(result.total).toBeUndefined()
    expect(server!.requests.map((request) => param(request, 'offset'))).toEqual([null, '10', '20'])
    await server!.close()
    const exact = await clientFor({ total: 20 }, { maxPageSize: 10 })
    expect((await exact.queryEntities({ type: 'Thing' })).entities).toHaveLength(20)
    // The third (empty) page is what proves the end.
    expect(server!.requests).toHaveLength(3)
  })

  it('adapts to a broker that silently returns shorter pages than asked', async () => {
    const client = await clientFor({ total: 30, count: true, silentCap: 8 }, { maxPageSize: 20 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(30))
    expect(param(server!.requests[0], 'offset')).toBeNull()
    // The remaining pages go out together, so they may reach the broker in any order.
    expect(server!.requests.slice(1).map((request) => Number(param(request, 'offset'))).sort((a, b) => a - b)).toEqual([8, 16, 24])
  })

  it('de-duplicates overlapping pages by id, keeping the first order', async () => {
    const client = await clientFor({ total: 30, count: true, overlap: true }, { maxPageSize: 10, pageConcurrency: 1 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(30).slice(0, 29))
    expect(new Set(ids(result.entities)).size).toBe(result.entities.length)
  })

  it('stops at the cap and reports truncated', async () => {
    const client = await clientFor({ total: 95, count: true }, { maxPageSize: 10, maxEntities: 25 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(25))
    expect(result).toMatchObject({ total: 95, truncated: true })
    expect(server!.requests).toHaveLength(3)
    expect(param(server!.requests[2], 'limit')).toBe('5')

    const limited = await client.queryEntities({ type: 'Thing', limit: 5 })
    expect(limited).toMatchObject({ truncated: true, total: 95 })
    expect(limited.entities).toHaveLength(5)
    expect(param(server!.requests[3], 'limit')).toBe('5')

    // A cap equal to the total truncates nothing.
    const all = await new NgsiClient({ brokerUrl: server!.url, maxPageSize: 10 }).queryEntities({ type: 'Thing', limit: 95 })
    expect(all).toMatchObject({ total: 95, truncated: false })
    expect(all.entities).toHaveLength(95)
  })

  it('stops at the cap while following links too', async () => {
    const client = await clientFor({ total: 50, count: true, links: true }, { maxPageSize: 10 })
    const result = await client.queryEntities({ type: 'Thing', limit: 15 })
    expect(ids(result.entities)).toEqual(expected(15))
    expect(result.truncated).toBe(true)
    expect(server!.requests).toHaveLength(2)
  })

  it('halves the page size on a "too many results" that states no maximum, and keeps the smaller size', async () => {
    const client = await clientFor({ total: 45, count: true, maxLimit: 20, refuse: 'scorpio' }, { maxPageSize: 100 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(45))
    const limits = server!.requests.map((request) => Number(param(request, 'limit')))
    expect(limits.slice(0, 4)).toEqual([100, 50, 25, 12])
    // The remaining pages go out together, so they may reach the broker in any order.
    expect(limits.slice(4).sort((a, b) => b - a)).toEqual([12, 12, 9])
  })

  it('takes the maximum an Orion-LD-style refusal states ("must be an integer value <= 20")', async () => {
    const client = await clientFor({ total: 45, count: true, maxLimit: 20, refuse: 'orion-ld' }, { maxPageSize: 100 })
    const result = await client.queryEntities({ type: 'Thing' })
    expect(ids(result.entities)).toEqual(expected(45))
    const limits = server!.requests.map((request) => Number(param(request, 'limit')))
    expect(limits.slice(0, 2)).toEqual([100, 20])
    // The remaining pages go out together, so they may reach the broker in any order.
    expect(limits.slice(2).sort((a, b) => b - a)).toEqual([20, 5])
  })

  it('cancels in-flight pages when one fails and reports that failure', async () => {
    const client = await clientFor(
      { total: 200, count: true, delayMs: 20, failWhen: (request) => param(request, 'offset') === '30' },
      { maxPageSize: 10, pageConcurrency: 4, timeoutMs: 5000 },
    )
    const error = await client.queryEntities({ type: 'Thing' }).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(NgsiError)
    expect((error as NgsiError).kind).toBe('bad-request')
    await delay(100)
    // 19 pages were due; the queue was dropped after the failure.
    expect(server!.requests.length).toBeLessThan(12)
  })

  it('hands on the pages before a body that is not JSON, none after it, and reports it', async () => {
    const client = await clientFor(
      { total: 100, count: true, garbleWhen: (request) => param(request, 'offset') === '50' },
      { maxPageSize: 10, pageConcurrency: 4, timeoutMs: 5000 },
    )
    const delivered: string[] = []
    const error = await client.streamEntities({ type: 'Thing' }, (entities) => void delivered.push(...ids(entities))).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(NgsiError)
    expect((error as NgsiError).kind).toBe('invalid-response')
    expect(delivered).toEqual(expected(50))
  })

  it('cancels every in-flight page when the caller aborts', async () => {
    const client = await clientFor({ total: 200, count: true, delayMs: 300 }, { maxPageSize: 10, pageConcurrency: 4 })
    const controller = new AbortController()
    const pending = client.queryEntities({ type: 'Thing' }, { signal: controller.signal })
    await delay(450)
    controller.abort(new Error('navigated away'))
    await expect(pending).rejects.toThrow('navigated away')
    const seen = server!.requests.length
    await delay(400)
    expect(server!.requests.length).toBe(seen)
    expect(seen).toBeLessThanOrEqual(5)
  })

  it('refuses next links that point to another host', async () => {
    server = await startServer((_request, response) =>
      sendJson(response, 200, makeEntities(2), { Link: '<http://evil.example/ngsi-ld/v1/entities?offset=2>; rel="next"' }),
    )
    const client = new NgsiClient({ brokerUrl: server.url, retries: 0, authToken: 'secret' })
    await expect(client.queryEntities({ type: 'Thing' })).rejects.toMatchObject({ kind: 'invalid-response' })
  })
})
