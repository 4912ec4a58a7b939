import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { closeRedisClient, createCache, createRedisClient } from '@/cache'
import { cachedPageSizeMemory, NgsiClient } from '@/ngsi'

import { makeEntities, sendJson, startServer, type TestServer } from '../../unit/ngsi/helpers'

// Stellio refuses any page above 100 entities with a 403. The size it accepts is learned once and
// kept in the shared cache: another replica, or this one after a restart (a new client on a new
// connection to the same Redis), starts at 100 and never sends a refused request.

const MAX_LIMIT = 100
const TOTAL = 450
const entities = makeEntities(TOTAL)

let broker: TestServer

beforeAll(async () => {
  broker = await startServer((request, response) => {
    const limit = Number(request.url.searchParams.get('limit'))
    const offset = Number(request.url.searchParams.get('offset') ?? 0)
    if (limit > MAX_LIMIT) {
      return sendJson(response, 403, {
        type: 'https://uri.etsi.org/ngsi-ld/errors/TooManyResults',
        title: 'Too many results',
        detail: `You asked for ${limit} results, but the supported maximum limit is ${MAX_LIMIT}`,
      })
    }
    const headers = request.url.searchParams.get('count') === 'true' ? { 'NGSILD-Results-Count': String(TOTAL) } : undefined
    sendJson(response, 200, entities.slice(offset, offset + limit), headers)
  })
})

afterAll(async () => {
  await broker?.close()
})

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const limitsAsked = () => broker.requests.map((request) => Number(request.url.searchParams.get('limit')))

describe.each([
  ['redis', redisUrl],
  ['memory', undefined],
])('the learned page size (%s cache)', (kind, url) => {
  it('is learned once: a fresh client on the same cache sends no refused request', async () => {
    const keyPrefix = `${process.env.REDIS_KEY_PREFIX ?? 'citydash-test:'}page-size-${kind}-${process.pid}-${Date.now()}:`
    // Redis: each client on a connection of its own, as on two replicas; memory: one process's cache.
    const connections = url ? [createRedisClient(url), createRedisClient(url)] : []
    const first = createCache({ redis: connections[0], keyPrefix })
    const second = url ? createCache({ redis: connections[1], keyPrefix }) : first
    const client = (cache: typeof first) =>
      new NgsiClient({ brokerUrl: broker.url, maxPageSize: 1000, retries: 0, pageSizeMemory: cachedPageSizeMemory(cache) })
    try {
      broker.requests.length = 0
      expect((await client(first).queryEntities({ type: 'Thing' })).entities).toHaveLength(TOTAL)
      expect(limitsAsked().filter((limit) => limit > MAX_LIMIT)).toEqual([1000])

      broker.requests.length = 0
      let streamed = 0
      await client(second).streamEntities({ type: 'Thing' }, (page) => void (streamed += page.length))
      expect(streamed).toBe(TOTAL)
      expect(limitsAsked()).toEqual([100, 100, 100, 100, 50])
    } finally {
      await Promise.all(connections.map(closeRedisClient))
    }
  })
})
