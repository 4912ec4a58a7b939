import { gunzipSync } from 'node:zlib'

import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { describe, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import { createLayerEncoder } from '@/layers/server/body'
import { createPresentation } from '@/layers/shared/presentation'
import { featureFromTile, readersFeatureFromTile, tileProperties, TILE_SOURCE_LAYER } from '@/layers/shared/tileFeatures'
import type { AlertText } from '@/layers/shared/types'
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

  it("carries the fired rule and its value, so a popup writes the alert message in the reader's language", async () => {
    // Two rules (the second fires) and display settings for its attribute: the server writes the
    // default language's message with them, a reader of Portuguese or English its own.
    const rules: AlertRule[] = [
      { attribute: 'no2', operator: 'gt', value: 400, level: 'critical', message: 'NO₂ en {value}' },
      { attribute: 'no2', operator: 'gt', value: 90, level: 'warning', message: '{attribute} alto: {value}' },
    ]
    const display = [{ attribute: 'no2', label: 'Dióxido de nitrógeno', unit: 'µg/m³', decimals: 1 }]
    const encoder = createLayerEncoder({ attributes: ['no2', 'name'], alertRules: rules, fetchedAt: new Date('2026-03-01T12:00:00Z'), display })
    await encoder.add([
      normalizeEntity({
        id: 'urn:ngsi-ld:AirQualityObserved:alto',
        type: 'AirQualityObserved',
        no2: { type: 'Property', value: 95.25 },
        name: { type: 'Property', value: 'Alto' },
        location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.83, 43.45] } },
      }),
    ])
    const body = await encoder.finish(false)
    const [point] = decode((await createTileService({ maxPoints: 100 }).tile(body, tileOf(16, -3.83, 43.45)))!)
    expect(point!.properties).toMatchObject({ __alert: 'warning', __alertMessage: 'Dióxido de nitrógeno alto: 95,3\u00a0µg/m³', __alertRule: 1, __alertValue: 95.25 })

    const labelled = (label: string) => [{ ...display[0]!, label }]
    const texts = (message: string): AlertText[] => [
      { message: 'x', attribute: 'no2', stale: false },
      { message, attribute: 'no2', stale: false },
    ]
    const pt = readersFeatureFromTile([-3.83, 43.45], point!.properties, texts('{attribute} elevado: {value}'), createPresentation({ attributes: labelled('Dióxido de azoto'), locale: 'pt', timeZone: 'Europe/Lisbon' }))
    expect(pt.properties.alert).toEqual({ level: 'warning', message: 'Dióxido de azoto elevado: 95,3\u00a0µg/m³', rule: 1, value: 95.25 })
    const en = readersFeatureFromTile([-3.83, 43.45], point!.properties, texts('High {attribute}: {value}'), createPresentation({ attributes: labelled('Nitrogen dioxide'), locale: 'en', timeZone: 'Europe/Madrid' }))
    expect((en.properties.alert as { message: string }).message).toBe('High Nitrogen dioxide: 95.3\u00a0µg/m³')
    // A reader of the default language has no texts: the server's message stands.
    const es = readersFeatureFromTile([-3.83, 43.45], point!.properties, undefined, createPresentation({ attributes: display, locale: 'es', timeZone: 'Europe/Madrid' }))
    expect((es.properties.alert as { message: string }).message).toBe('Dióxido de nitrógeno alto: 95,3\u00a0µg/m³')
    expect(es.properties).not.toHaveProperty('__alertRule')
    expect(es.properties).not.toHaveProperty('__alertValue')
  })

  it("gives a text the broker holds in several languages in the reader's language in a tile's popup", async () => {
    const encoder = createLayerEncoder({ attributes: ['name'], alertRules: [], fetchedAt: new Date('2026-03-01T12:00:00Z') })
    await encoder.add([
      normalizeEntity({
        id: 'urn:ngsi-ld:PointOfInterest:harbour',
        type: 'PointOfInterest',
        name: { type: 'LanguageProperty', languageMap: { es: 'Puerto', 'pt-PT': 'Porto de mar', en: 'Harbour' } },
        location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.83, 43.45] } },
      }),
    ])
    const [point] = decode((await createTileService({ maxPoints: 100 }).tile(await encoder.finish(false), tileOf(16, -3.83, 43.45)))!)
    const reader = (locale: string) => readersFeatureFromTile([-3.83, 43.45], point!.properties, undefined, createPresentation({ locale, timeZone: 'Europe/Madrid' }), ['es'])
    expect(reader('pt').properties.name).toBe('Porto de mar')
    expect(reader('en').properties.name).toBe('Harbour')
    // A language the broker has no text in: the fallback's.
    expect(reader('fr').properties.name).toBe('Puerto')
    expect(Object.keys(reader('pt').properties).filter((key) => key.includes('@'))).toEqual([])
  })

  it('splits an alert into scalars a tile can hold, and reads them back', () => {
    const feature = (alert: unknown) =>
      ({ type: 'Feature', id: 'urn:x', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { entityId: 'urn:x', alert } }) as Parameters<typeof tileProperties>[0]
    // A stale rule's value is the observation time; a missing value has none.
    expect(tileProperties(feature({ level: 'info', message: 'Sin datos desde {value}', rule: 0, value: '2026-03-01T10:00:00Z' }))).toEqual({
      __alert: 'info',
      __alertMessage: 'Sin datos desde {value}',
      __alertRule: 0,
      __alertValue: '2026-03-01T10:00:00Z',
      entityId: 'urn:x',
    })
    const missing = tileProperties(feature({ level: 'warning', message: 'Falta', rule: 2, value: null }))
    expect(missing).toEqual({ __alert: 'warning', __alertMessage: 'Falta', __alertRule: 2, entityId: 'urn:x' })
    expect(featureFromTile([0, 0], missing).properties.alert).toEqual({ level: 'warning', message: 'Falta', rule: 2 })
    // No alert, no alert fields; an older tile without the rule reads back as before.
    expect(tileProperties(feature(undefined))).toEqual({ entityId: 'urn:x' })
    expect(featureFromTile([0, 0], { __alert: 'critical', __alertMessage: 'NO₂ 95', entityId: 'urn:x' }).properties.alert).toEqual({ level: 'critical', message: 'NO₂ 95' })
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
