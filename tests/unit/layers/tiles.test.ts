import { gunzipSync } from 'node:zlib'

import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { describe, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import { createLayerEncoder } from '@/layers/server/body'
import { featureFromTile, TILE_SOURCE_LAYER } from '@/layers/shared/tileFeatures'
import { createTileService, layerTileAddressSchema as tileAddressSchema } from '@/layers/server/tiles'
import { normalizeEntity } from '@/ngsi'

// Tiles cut from a cached layer body: every point lands in the tile that covers it, merged into
// clusters where they crowd, with its properties (alert included) readable back for a popup.

const RULES: AlertRule[] = [{ attribute: 'no2', operator: 'gt', value: 90, level: 'critical', message: 'NO₂ {value}' }]

/** A grid of `side × side` stations about 100 m apart around Santander's centre. */
async function gridBody(side: number) {
  const encoder = createLayerEncoder({ attributes: ['no2', 'name'], alertRules: RULES, fetchedAt: new Date('2026-03-01T12:00:00Z') })
  for (let row = 0; row < side; row++) {
    await encoder.add(
      Array.from({ length: side }, (_, column) =>
        normalizeEntity({
          id: `urn:ngsi-ld:AirQualityObserved:r${row}c${column}`,
          type: 'AirQualityObserved',
          no2: { type: 'Property', value: row * side + column === 0 ? 95 : 10 },
          name: { type: 'Property', value: row === 0 && column === 0 ? '<img src=x onerror=alert(1)>' : `Estación ${row}/${column}` },
          location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.83 + column * 0.0012, 43.45 + row * 0.0009] } },
        }),
      ),
    )
  }
  return encoder.finish(false)
}

/** The tile (x, y) at zoom z that holds a longitude and latitude. */
function tileOf(zoom: number, lon: number, lat: number) {
  const n = 2 ** zoom
  const rad = (lat * Math.PI) / 180
  return { z: zoom, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n) }
}

function decode(bytes: Buffer) {
  const layer = new VectorTile(new PbfReader(gunzipSync(bytes))).layers[TILE_SOURCE_LAYER]
  return Array.from({ length: layer.length }, (_, index) => {
    const feature = layer.feature(index)
    return { properties: feature.properties }
  })
}

describe('layer tiles', () => {
  it('cuts every point into the tile that covers it, one feature each at the deepest zoom', async () => {
    const body = await gridBody(30)
    const tiles = createTileService({ maxPoints: 10_000 })
    const address = tileOf(16, -3.83, 43.45)
    const features = decode((await tiles.tile(body, address))!)
    const ids = features.map(({ properties }) => properties.entityId)
    expect(ids).toContain('urn:ngsi-ld:AirQualityObserved:r0c0')
    expect(features.every(({ properties }) => properties.cluster === undefined)).toBe(true)

    const first = features.find(({ properties }) => properties.entityId === 'urn:ngsi-ld:AirQualityObserved:r0c0')!
    expect(first.properties).toMatchObject({ __alert: 'critical', __alertMessage: 'NO₂ 95', no2: 95, name: '<img src=x onerror=alert(1)>' })
    const popup = featureFromTile([-3.83, 43.45], first.properties)
    expect(popup).toMatchObject({ id: 'urn:ngsi-ld:AirQualityObserved:r0c0', properties: { name: '<img src=x onerror=alert(1)>', no2: 95, alert: { level: 'critical', message: 'NO₂ 95' } } })
    expect(popup.properties).not.toHaveProperty('__alert')
  })

  it('gives back each point its own properties in a layer of many thousand points', async () => {
    const body = await gridBody(70)
    const tiles = createTileService({ maxPoints: 10_000 })
    for (const [row, column] of [[0, 1], [58, 36], [69, 69]]) {
      const address = tileOf(16, -3.83 + column * 0.0012, 43.45 + row * 0.0009)
      const station = decode((await tiles.tile(body, address))!).find(({ properties }) => properties.entityId === `urn:ngsi-ld:AirQualityObserved:r${row}c${column}`)
      const id = `urn:ngsi-ld:AirQualityObserved:r${row}c${column}`
      expect(station?.properties).toEqual({ entityId: id, entityType: 'AirQualityObserved', no2: 10, name: `Estación ${row}/${column}` })
    }
  })

  it('merges crowded points into clusters that count them all at a city zoom', async () => {
    const body = await gridBody(30)
    const tiles = createTileService({ maxPoints: 10_000 })
    // The grid spans about 3.5 × 2.7 km: at zoom 9 it lies in one tile.
    const address = tileOf(9, -3.83, 43.45)
    expect(tileOf(9, -3.83 + 29 * 0.0012, 43.45 + 29 * 0.0009)).toEqual(address)
    const features = decode((await tiles.tile(body, address))!)
    const counted = features.reduce((sum, { properties }) => sum + (properties.cluster ? Number(properties.point_count) : 1), 0)
    expect(counted).toBe(900)
    expect(features.length).toBeLessThan(50)
  })

  it('has no tile where the layer has no point', async () => {
    const body = await gridBody(5)
    const tiles = createTileService({ maxPoints: 10_000 })
    expect(await tiles.tile(body, tileOf(10, 139.7, 35.7))).toBeUndefined()
    expect(await tiles.tile(body, tileOf(10, -3.83, 43.45))).toBeDefined()
  })

  it('accepts z/x/y inside the grid only', () => {
    expect(tileAddressSchema.parse({ z: '3', x: '7', y: '0' })).toEqual({ z: 3, x: 7, y: 0 })
    for (const bad of [
      { z: '3', x: '8', y: '0' },
      { z: '-1', x: '0', y: '0' },
      { z: '17', x: '0', y: '0' },
      { z: '2', x: '1.5', y: '0' },
      { z: 'a', x: '0', y: '0' },
      { z: '1', x: '0', y: '0x1' },
    ]) {
      expect(tileAddressSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})
