import { afterAll, beforeAll, expect, it } from 'vitest'

import { createMemoryCache } from '@/cache'
import { LayerFeatureService, type LayerSpec } from '@/layers/server/features'
import { NgsiClient } from '@/ngsi'

import { delay, sendJson, startServer, type TestServer } from '../ngsi/helpers'

// Layers that go cold together load two at a time per process: each load holds pages and a
// compressor, so the cap bounds memory; the others wait their turn and still get their data.

const TYPES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']
const PAGES = 3
const PAGE_SIZE = 10

let broker: TestServer
const loading = new Set<string>()
let mostAtOnce = 0

beforeAll(async () => {
  broker = await startServer(async (request, response) => {
    const type = request.url.searchParams.get('type') ?? ''
    const offset = Number(request.url.searchParams.get('offset') ?? 0)
    if (offset === 0) loading.add(type)
    mostAtOnce = Math.max(mostAtOnce, loading.size)
    await delay(20)
    const entities = Array.from({ length: PAGE_SIZE }, (_, index) => ({
      id: `urn:ngsi-ld:${type}:${offset + index}`,
      type,
      location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [2, 41] } },
    }))
    // The last page ends that layer's load.
    if (offset + PAGE_SIZE >= PAGES * PAGE_SIZE) loading.delete(type)
    sendJson(response, 200, entities, offset === 0 ? { 'NGSILD-Results-Count': String(PAGES * PAGE_SIZE) } : {})
  })
})

afterAll(async () => {
  await broker?.close()
})

const spec = (entityType: string): LayerSpec => ({
  id: entityType,
  updatedAt: '2026-01-01T00:00:00.000Z',
  entityType,
  attributes: [],
  filters: [],
  alertRules: [],
  refreshSeconds: 60,
  maxFeatures: 1_000,
})

it('loads at most two cold layers at once and answers every one', async () => {
  const service = new LayerFeatureService({
    client: new NgsiClient({ brokerUrl: broker.url, maxPageSize: PAGE_SIZE, pageConcurrency: 1, retries: 0 }),
    cache: createMemoryCache({ maxEntries: 100, maxBytes: 1024 * 1024 }),
  })
  const results = await Promise.all(TYPES.map((type) => service.get(spec(type))))
  expect(results.map((result) => result.meta.count)).toEqual(TYPES.map(() => PAGES * PAGE_SIZE))
  expect(mostAtOnce).toBe(2)
})
