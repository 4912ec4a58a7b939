import { describe, expect, it } from 'vitest'

import { flattenRecord, normalizeEntity, toFeatureCollection, validateGeometry } from '@/ngsi'
import { isGeometryShaped } from '@/ngsi/geojson'

import { fixture } from './helpers'

const point = (coordinates: unknown[]) => ({ type: 'Point', coordinates })
const located = (id: string, location: unknown, extra: Record<string, unknown> = {}) =>
  normalizeEntity({ id, type: 'Thing', location: { type: 'GeoProperty', value: location }, ...extra })

describe('validateGeometry', () => {
  it('accepts every geometry type and cuts 3-D positions to 2-D', () => {
    expect(validateGeometry(point([13.416, 52.485, 0]))).toEqual(point([13.416, 52.485]))
    expect(validateGeometry({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] })).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] })
    expect(validateGeometry({ type: 'LineString', coordinates: [[1, 2, 5], [3, 4, 6]] })).toEqual({ type: 'LineString', coordinates: [[1, 2], [3, 4]] })
    const ring = [[0, 0], [1, 0], [1, 1], [0, 0]]
    expect(validateGeometry({ type: 'Polygon', coordinates: [ring] })).toEqual({ type: 'Polygon', coordinates: [ring] })
    expect(validateGeometry({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]]] })).toBeDefined()
    expect(validateGeometry({ type: 'MultiPolygon', coordinates: [[ring]] })).toEqual({ type: 'MultiPolygon', coordinates: [[ring]] })
  })

  it('rejects malformed geometries', () => {
    for (const bad of [
      null,
      'POINT(1 2)',
      point([1]),
      point(['1', 2]),
      point([Number.NaN, 2]),
      point([1, Number.POSITIVE_INFINITY]),
      { type: 'Point' },
      { type: 'Circle', coordinates: [1, 2] },
      { type: 'GeometryCollection', geometries: [] },
      { type: 'LineString', coordinates: [[1, 2]] },
      { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [0, 0]]] },
      { type: 'Polygon', coordinates: [] },
      { type: 'MultiPoint', coordinates: [1, 2] },
      point([200, 95]),
      { type: 'toString', coordinates: [1, 2] },
    ]) {
      expect(validateGeometry(bad), JSON.stringify(bad)).toBeUndefined()
    }
  })

  it('swaps lat,lon back only when a latitude out of range proves it', () => {
    // Sydney written lat,lon: "latitude" 151.2 is impossible, swapped it fits.
    expect(validateGeometry(point([-33.87, 151.21]))).toEqual(point([151.21, -33.87]))
    expect(validateGeometry({ type: 'LineString', coordinates: [[-33.87, 151.21], [-33.9, 151.3]] })).toEqual({ type: 'LineString', coordinates: [[151.21, -33.87], [151.3, -33.9]] })
    // Both orders valid: cannot be proven, kept as sent.
    expect(validateGeometry(point([60.170833, 24.9375]))).toEqual(point([60.170833, 24.9375]))
    // Longitude out of range with a valid latitude is not a swap, just wrong.
    expect(validateGeometry(point([190, 10]))).toBeUndefined()
  })
})

describe('isGeometryShaped', () => {
  it('accepts the form of every geometry type, whatever the nesting, position size or range', () => {
    for (const good of [
      point([1, 2]),
      point([1, 2, 3]),
      point([1]),
      point([200, 95]),
      { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] },
      { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [0, 0]]] },
      { type: 'MultiPoint', coordinates: [1, 2] },
      { type: 'LineString', coordinates: [[1, 2], [[3, 4]]] },
    ]) {
      expect(isGeometryShaped(good), JSON.stringify(good)).toBe(true)
    }
  })

  it('refuses what is not that form', () => {
    for (const bad of [
      null,
      'POINT(1 2)',
      [1, 2],
      { type: 'Point' },
      { type: 'Circle', coordinates: [1, 2] },
      { type: 'toString', coordinates: [1, 2] },
      point([]),
      point(['1', 2]),
      point([1, 2, null]),
      point([Number.NaN, 2]),
      point([1, [2]]),
      { type: 'Polygon', coordinates: [[]] },
    ]) {
      expect(isGeometryShaped(bad), JSON.stringify(bad)).toBe(false)
    }
  })
})

describe('toFeatureCollection', () => {
  it('builds features with chosen attributes, counting entities it cannot place', () => {
    const entities = [
      located('urn:a', point([-3.7, 40.4]), { temperature: { type: 'Property', value: 21, unitCode: 'CEL', observedAt: '2024-01-01T10:00:00Z' }, name: { type: 'Property', value: 'A' } }),
      normalizeEntity({ id: 'urn:b', type: 'Thing', temperature: { type: 'Property', value: 3 } }),
      located('urn:c', point([500, 500])),
      located('urn:d', 'nowhere'),
    ]
    const collection = toFeatureCollection(entities, { attributes: ['temperature', 'missing'] })
    expect(collection.skipped).toBe(3)
    expect(collection.features).toEqual([
      {
        type: 'Feature',
        id: 'urn:a',
        geometry: point([-3.7, 40.4]),
        properties: { temperature: 21, entityId: 'urn:a', entityType: 'Thing', observedAt: '2024-01-01T10:00:00.000Z' },
      },
    ])
  })

  it('includes every non-geometry attribute by default and falls back to another GeoProperty', () => {
    const space = normalizeEntity(fixture('etsi-test-suite/entities/building-observation-space-geoproperty-normalized.jsonld'))
    const [feature] = toFeatureCollection([space]).features
    expect(feature.geometry).toEqual(point([13.3986, 52.5547]))
    expect(feature.properties).toEqual({ entityId: 'urn:ngsi-ld:Building:randomUUID', entityType: 'Building' })
    const weather = normalizeEntity(fixture('smart-data-models/WeatherObserved.example-normalized.jsonld'))
    const properties = toFeatureCollection([weather]).features[0].properties
    expect(properties).toMatchObject({ temperature: 3.3, refDevice: 'urn:ngsi-ld:Device:device-0A3478', entityType: 'WeatherObserved' })
    expect(properties).not.toHaveProperty('location')
  })

  it('places the quirky DeviceMeasurement (location as a plain Property) and skips the Device without location', () => {
    const measurement = normalizeEntity(fixture('smart-data-models/DeviceMeasurement.example-normalized.jsonld'))
    const device = normalizeEntity(fixture('smart-data-models/Device.example-normalized.jsonld'))
    const collection = toFeatureCollection([measurement, device], { attributes: ['numValue'] })
    expect(collection.skipped).toBe(1)
    expect(collection.features[0]).toMatchObject({ id: measurement.id, properties: { numValue: 55.2 } })
  })
})

describe('flattenRecord', () => {
  it('flattens an entity into scalar table cells', () => {
    const air = normalizeEntity(fixture('smart-data-models/AirQualityObserved.example-normalized.jsonld'))
    const row = flattenRecord(air, { attributes: ['no2', 'address', 'location', 'refPointOfInterest', 'absent'] })
    expect(row).toEqual({
      id: air.id,
      type: 'AirQualityObserved',
      observedAt: '2016-03-15T11:00:00.000Z',
      no2: 69,
      'address.addressCountry': 'ES',
      'address.addressLocality': 'Madrid',
      'address.streetAddress': 'Plaza de España',
      'address.type': 'PostalAddress',
      location: '-3.712247222222222, 40.423852777777775',
      refPointOfInterest: 'urn:ngsi-ld:PointOfInterest:28079004-Pza.deEspanya',
      absent: null,
    })
    const device = flattenRecord(normalizeEntity(fixture('smart-data-models/Device.example-normalized.jsonld')))
    expect(device.controlledProperty).toBe('fillingLevel, temperature')
    for (const cell of Object.values(device)) expect(cell === null || typeof cell !== 'object').toBe(true)
  })
})
