import { afterEach, describe, expect, it } from 'vitest'

import { createPageSizeMemory, errorFromResponse, NgsiClient, type NgsiClientOptions, startingPageSize, statedMaximum } from '@/ngsi'

import { makeEntities, sendJson, startServer, type TestServer } from './helpers'

// Learning the page size a broker accepts: from what it states when it refuses one, else by
// halving; remembered per broker so later loads do not repeat the refusals.

const ERRORS = 'https://uri.etsi.org/ngsi-ld/errors/'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A broker with `total` entities that refuses limits above `maxLimit` with the given detail. */
async function refusingBroker(total: number, maxLimit: number, detail: string, options: Partial<NgsiClientOptions> = {}) {
  const entities = makeEntities(total)
  server = await startServer((request, response) => {
    const limit = Number(request.url.searchParams.get('limit'))
    const offset = Number(request.url.searchParams.get('offset') ?? 0)
    if (limit > maxLimit) return sendJson(response, 403, { type: `${ERRORS}TooManyResults`, title: 'Too many results', detail })
    const headers = request.url.searchParams.get('count') === 'true' ? { 'NGSILD-Results-Count': String(total) } : undefined
    sendJson(response, 200, entities.slice(offset, offset + limit), headers)
  })
  return new NgsiClient({ brokerUrl: server.url, retries: 0, maxPageSize: 1000, ...options })
}

// Pages after the first go out together and may reach the broker in any order: the first
// request, then the rest largest first (a shrinking sequence keeps its order).
const limitsSent = () => {
  const [first, ...rest] = server!.requests.map((request) => Number(request.url.searchParams.get('limit')))
  return [first, ...rest.sort((a, b) => b - a)]
}

describe('stated maximum', () => {
  it.each([
    ['limit 1000 is above the maximum of 100', 100],
    ['You asked for 1000 results, but the supported maximum limit is 100', 100],
    ['must be an integer value <= 1000', 1000],
    ['max: 500', 500],
  ])('reads "%s" as %i', (detail, max) => {
    expect(statedMaximum({ detail })).toBe(max)
    expect(errorFromResponse(403, 'Forbidden', JSON.stringify({ type: `${ERRORS}TooManyResults`, detail }), 'application/json').maxPageSize).toBe(max)
  })

  it.each(['limit above the allowed size', 'maximum exceeded', '', 'limit 1000 is too many'])('finds none in "%s"', (detail) => {
    expect(statedMaximum({ detail })).toBeUndefined()
  })

  it('states no page size on errors other than too many results', () => {
    const error = errorFromResponse(400, 'Bad Request', JSON.stringify({ type: `${ERRORS}BadRequestData`, detail: 'name longer than the maximum of 256' }), 'application/json')
    expect(error.kind).toBe('bad-request')
    expect(error.maxPageSize).toBeUndefined()
  })
})

describe('page size memory', () => {
  it('jumps to the stated maximum, and the next load starts there (Stellio: 403 above 100)', async () => {
    const client = await refusingBroker(250, 100, 'limit 1000 is above the maximum of 100')
    expect((await client.queryEntities({ type: 'Thing' })).entities).toHaveLength(250)
    expect(limitsSent()).toEqual([1000, 100, 100, 50])
    server!.requests.length = 0
    expect((await client.queryEntities({ type: 'Thing' })).entities).toHaveLength(250)
    expect(limitsSent()).toEqual([100, 100, 50])
  })

  it('halves when no maximum is stated, and remembers the accepted size rather than halving again', async () => {
    const client = await refusingBroker(130, 100, 'too many')
    expect((await client.queryEntities({ type: 'Thing' })).entities).toHaveLength(130)
    expect(limitsSent().slice(0, 3)).toEqual([1000, 500, 250])
    expect(limitsSent()[3]).toBe(125)
    server!.requests.length = 0
    await client.queryEntities({ type: 'Thing' })
    // 62 is what halving reached: the refused 1000, 500, 250 and 125 are not asked again.
    expect(limitsSent().every((limit) => limit <= 100)).toBe(true)
    expect(limitsSent()[0]).toBe(62)
  })

  it('is shared by clients given the same memory, and keyed by broker', async () => {
    const memory = createPageSizeMemory()
    const first = await refusingBroker(30, 10, 'limit above the maximum of 10', { pageSizeMemory: memory })
    await first.queryEntities({ type: 'Thing' })
    const second = new NgsiClient({ brokerUrl: server!.url, retries: 0, maxPageSize: 1000, pageSizeMemory: memory })
    server!.requests.length = 0
    await second.queryEntities({ type: 'Thing' })
    expect(limitsSent()).toEqual([10, 10, 10])
    expect(await memory.get('http://127.0.0.1:1/ngsi-ld/v1')).toBeUndefined()
  })

  it('remembers a broker that silently returns shorter pages', async () => {
    const entities = makeEntities(40)
    server = await startServer((request, response) => {
      const offset = Number(request.url.searchParams.get('offset') ?? 0)
      sendJson(response, 200, entities.slice(offset, offset + 15), { 'NGSILD-Results-Count': '40' })
    })
    const client = new NgsiClient({ brokerUrl: server.url, retries: 0, maxPageSize: 100 })
    expect((await client.queryEntities({ type: 'Thing' })).entities).toHaveLength(40)
    server.requests.length = 0
    expect((await client.queryEntities({ type: 'Thing' })).entities).toHaveLength(40)
    expect(limitsSent()).toEqual([15, 15, 10])
  })

  it('never starts above the configured size, and ignores nonsense sizes', async () => {
    const memory = createPageSizeMemory()
    await memory.set('b', 500)
    expect(await startingPageSize(memory, 'b', 100)).toBe(100)
    expect(await startingPageSize(memory, 'b', 1000)).toBe(500)
    await memory.set('b', 0)
    await memory.set('b', 2.5)
    expect(await memory.get('b')).toBe(500)
    expect(await startingPageSize(memory, 'other', 1000)).toBe(1000)
  })
})
