import { gunzipSync } from 'node:zlib'

import { describe, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import { createLayerEncoder, eachFeature, type LayerBody, lineWithinBox, rewriteBody } from '@/layers/server/body'
import { type Feature, normalizeEntity, type NormalizedEntity, toFeatureCollection } from '@/ngsi'

// The streaming encoder: pages in, one gzipped GeoJSON body out, equal to what a whole-set
// encoding gives, and readable back feature by feature.

// Hostile text in a property cannot end a line, fake the meta or inject a feature: JSON escapes the newline.
const HOSTILE = '"quoted"\n],"meta":{"stale":true}}\n{"type":"Feature","geometry":{"type":"Point","coordinates":[-3.65,43.3]}}, ünïcödé'
const FETCHED_AT = new Date('2026-03-01T12:00:00.000Z')
const RULES: AlertRule[] = [{ attribute: 'no2', operator: 'gt', value: 40, level: 'critical', message: 'NO₂ {value}' }]

function entity(index: number, overrides: Record<string, unknown> = {}): NormalizedEntity {
  return normalizeEntity({
    id: `urn:ngsi-ld:AirQualityObserved:e-${index}`,
    type: 'AirQualityObserved',
    no2: { type: 'Property', value: index, unitCode: 'GQ', observedAt: '2026-03-01T11:00:00.000Z' },
    name: { type: 'Property', value: `Station ${index} ${HOSTILE}` },
    location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8 + index / 100, 43.46 - index / 100] } },
    ...overrides,
  })
}

const decode = (body: LayerBody) => JSON.parse(gunzipSync(body.gzipped).toString('utf8')) as { type: string; features: Feature[]; meta: LayerBody['meta'] }

async function encode(pages: NormalizedEntity[][], truncated = false) {
  const encoder = createLayerEncoder({ attributes: ['no2', 'name'], alertRules: RULES, fetchedAt: FETCHED_AT })
  for (const page of pages) await encoder.add(page)
  return encoder.finish(truncated)
}

const entities = [
  ...Array.from({ length: 60 }, (_, index) => entity(index)),
  // No location: skipped, yet its unit still counts.
  entity(1000, { location: undefined, no2: { type: 'Property', value: 1, unitCode: 'GQ' } }),
  // A polygon: kept by every bbox.
  entity(2000, { location: { type: 'GeoProperty', value: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } } }),
]

describe('streaming layer encoder', () => {
  it('gives the features, alerts and meta of a whole-set encoding, as valid GeoJSON', async () => {
    const body = decode(await encode([entities.slice(0, 25), entities.slice(25)], true))
    const expected = toFeatureCollection(entities, { attributes: ['no2', 'name'] })
    expect(body.type).toBe('FeatureCollection')
    expect(body.features.map(({ id, geometry }) => ({ id, geometry }))).toEqual(expected.features.map(({ id, geometry }) => ({ id, geometry })))
    expect(body.features[10].properties).toMatchObject({ no2: 10, name: `Station 10 ${HOSTILE}`, entityId: entities[10].id })
    expect(body.features[10].properties.alert).toBeUndefined()
    expect(body.features[41].properties.alert).toMatchObject({ level: 'critical', message: 'NO₂ 41' })
    expect(body.meta).toEqual({ count: 61, fetchedAt: FETCHED_AT.toISOString(), stale: false, truncated: true, skipped: 1, units: { no2: 'µg/m³' } })
  })

  it('gives the same bytes and ETag however the pages were cut', async () => {
    const whole = await encode([entities])
    const paged = await encode([entities.slice(0, 7), [], entities.slice(7, 40), entities.slice(40)])
    expect(paged.etag).toBe(whole.etag)
    expect(paged.gzipped.equals(whole.gzipped)).toBe(true)
  })

  it('encodes an empty layer as an empty collection', async () => {
    const body = decode(await encode([]))
    expect(body.features).toEqual([])
    expect(body.meta).toMatchObject({ count: 0, skipped: 0, units: {} })
  })

  it('reads the body back one feature at a time, in order', async () => {
    const body = await encode([entities])
    const read: Feature[] = []
    await eachFeature(body, (feature) => read.push(feature))
    expect(read).toEqual(decode(body).features)
  })

  it('filters by bbox without parsing: points inside the box, every other geometry', async () => {
    const body = await encode([entities])
    // Points run from (-3.8, 43.46) by +0.01 lon and -0.01 lat: indexes 10..20 fall in this box.
    const bbox = [-3.7001, 43.2599, -3.5999, 43.3601] as [number, number, number, number]
    const filtered = await rewriteBody(body, (line) => lineWithinBox(bbox, line), (count) => ({ ...body.meta, count }))
    const features = decode(filtered).features
    expect(features.map((feature) => feature.id)).toEqual([...entities.slice(10, 21), entities.at(-1)!].map((item) => item.id))
    expect(decode(filtered).meta.count).toBe(12)
    expect(filtered.etag).not.toBe(body.etag)
  })

  it('relabels a body stale with every feature kept', async () => {
    const body = await encode([entities])
    const stale = await rewriteBody(body, () => true, () => ({ ...body.meta, stale: true }))
    expect(decode(stale).features).toEqual(decode(body).features)
    expect(decode(stale).meta).toEqual({ ...body.meta, stale: true })
  })

  it('reads features longer than a decompression chunk', async () => {
    const long = entity(1, { name: { type: 'Property', value: 'x'.repeat(200_000) } })
    const body = await encode([[entity(0), long, entity(2)]])
    const names: unknown[] = []
    await eachFeature(body, (feature) => names.push(feature.properties.name))
    expect(names).toHaveLength(3)
    expect(names[1]).toBe('x'.repeat(200_000))
  })

  it('keeps every byte across the writes to the compressor: multi-byte text at the edges, a line larger than one write', async () => {
    // Lines of ~3 kB with characters of 2, 3 and 4 UTF-8 bytes fill the 256 kB write buffer unevenly; one line is 700 kB.
    const wide = Array.from({ length: 400 }, (_, index) =>
      entity(index, { name: { type: 'Property', value: `${'ñ€𝄞'.repeat(index % 7)}${'é'.repeat(700 + index)}${'中'.repeat(index % 300)}` } }),
    )
    const huge = entity(400, { name: { type: 'Property', value: '€'.repeat(240_000) } })
    const all = [...wide.slice(0, 150), huge, ...wide.slice(150)]
    const body = decode(await encode([all.slice(0, 99), all.slice(99, 151), all.slice(151)]))
    expect(body.features.map((feature) => feature.properties.name)).toEqual(all.map((one) => one.attributes.name.value))
  })

  it('drops an aborted load without output or error', async () => {
    const encoder = createLayerEncoder({ attributes: ['no2'], alertRules: [], fetchedAt: FETCHED_AT })
    await encoder.add(entities)
    expect(() => encoder.abort()).not.toThrow()
  })
})
