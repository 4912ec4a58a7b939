import { afterEach, describe, expect, it } from 'vitest'

import { NgsiClient, readBody } from '@/ngsi'

import { sendJson, startServer, type TestServer } from './helpers'

const MB = 1024 * 1024

async function* chunksOf(...chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk
}

/** `size` bytes of one repeated letter: a body whose every byte says which answer it belongs to. */
const filled = (letter: string, size: number) => Buffer.alloc(size, letter)

describe('readBody: broker answers read into reusable bytes', () => {
  it('gives the chunks back joined, under, at and over the reusable size, and for an empty body', async () => {
    for (const sizes of [[], [10], [MB / 2, MB / 2], [MB - 3, 2, 1], [MB, 1], [3, MB + 5, 7]]) {
      const chunks = sizes.map((size, index) => filled(String.fromCharCode(97 + index), size))
      const { body } = await readBody(chunksOf(...chunks))
      expect(body.equals(Buffer.concat(chunks))).toBe(true)
    }
  })

  it('never lets a later answer overwrite one still held, even when another is released twice', async () => {
    const held = await readBody(chunksOf(filled('a', 300_000)))
    const twice = await readBody(chunksOf(filled('b', 300_000)))
    twice.release?.()
    twice.release?.()
    // Both may reuse what was released; a second release must not hand the same bytes to both.
    const third = await readBody(chunksOf(filled('c', 200_000)))
    const fourth = await readBody(chunksOf(filled('d', 200_000)))
    expect(held.body.equals(filled('a', 300_000))).toBe(true)
    expect(third.body.equals(filled('c', 200_000))).toBe(true)
    expect(fourth.body.equals(filled('d', 200_000))).toBe(true)
    for (const answer of [held, third, fourth]) answer.release?.()
  })

  it('passes on a failure of the stream', async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield filled('a', 1000)
      throw new Error('connection reset')
    }
    await expect(readBody(broken())).rejects.toThrow('connection reset')
    // The bytes it had are used again safely.
    const next = await readBody(chunksOf(filled('b', 2000)))
    expect(next.body.equals(filled('b', 2000))).toBe(true)
  })
})

describe('a layer load through the real transport', () => {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('keeps every page intact while pages of reused and oversized bytes are in flight together', async () => {
    const total = 2_000
    const pageSize = 100
    // Every fifth page carries a long text per entity: over 1 MB, read the ordinary way.
    const entity = (index: number) => ({
      id: `urn:ngsi-ld:Thing:${index}`,
      type: 'Thing',
      n: { type: 'Property', value: index },
      note: { type: 'Property', value: Math.floor(index / pageSize) % 5 === 0 ? `${index}:`.padEnd(12_000, 'x') : `${index}` },
    })
    server = await startServer((request, response) => {
      const offset = Number(request.url.searchParams.get('offset') ?? 0)
      const limit = Number(request.url.searchParams.get('limit'))
      const page = Array.from({ length: Math.min(limit, total - offset) }, (_, index) => entity(offset + index))
      // Later pages answer sooner: pages wait for their turn while others are read.
      setTimeout(() => sendJson(response, 200, page, { 'NGSILD-Results-Count': String(total) }), (total - offset) / 200)
    })
    const client = new NgsiClient({ brokerUrl: server.url, retries: 0, maxPageSize: pageSize, pageConcurrency: 6, maxEntities: total })
    const seen: { id: string; n: unknown; note: unknown }[] = []
    const { count } = await client.streamEntities({ type: 'Thing' }, (entities) => {
      for (const { id, attributes } of entities) seen.push({ id, n: attributes.n.value, note: attributes.note.value })
    })
    expect(count).toBe(total)
    expect(seen).toEqual(Array.from({ length: total }, (_, index) => ({ id: entity(index).id, n: index, note: entity(index).note.value })))
    expect(server.maxConcurrent).toBeGreaterThan(1)
  })
})
