import { describe, expect, it } from 'vitest'

import { boxOfFeatures, boxParameter, cityArea, CITY_RADIUS_DEGREES, fittable, MAX_AREA_DEGREES, unionOf } from '@/layers/client/map/bounds'
import { mapFor, preferMap, registerMap } from '@/layers/client/map/mapRegistry'
import type { Feature } from '@/ngsi'
import { bboxSchema, insideBbox } from '@/upstreams'

const point = (id: string, lon: number, lat: number): Feature => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lon, lat] }, properties: {} })

describe('boxOfFeatures', () => {
  it('holds every position of points, lines and polygons', () => {
    const line: Feature = { type: 'Feature', id: 'l', geometry: { type: 'LineString', coordinates: [[-3.9, 43.4], [-3.7, 43.5]] }, properties: {} }
    const polygon: Feature = {
      type: 'Feature',
      id: 'p',
      geometry: { type: 'Polygon', coordinates: [[[-3.85, 43.38], [-3.8, 43.38], [-3.8, 43.42], [-3.85, 43.38]]] },
      properties: {},
    }
    expect(boxOfFeatures([point('a', -3.81, 43.46), line, polygon])).toEqual([-3.9, 43.38, -3.7, 43.5])
  })

  it('is undefined without features, and skips positions that are no place on Earth', () => {
    expect(boxOfFeatures([])).toBeUndefined()
    expect(boxOfFeatures([point('bad', 500, 43), point('nan', Number.NaN, 1)])).toBeUndefined()
    expect(boxOfFeatures([point('bad', 500, 43), point('ok', -3.8, 43.4)])).toEqual([-3.8, 43.4, -3.8, 43.4])
  })
})

describe('unionOf and fittable', () => {
  it('joins boxes, ignoring the missing', () => {
    expect(unionOf([undefined, [0, 0, 1, 1], [-1, 0.5, 0.5, 2]])).toEqual([-1, 0, 1, 2])
    expect(unionOf([undefined])).toBeUndefined()
  })

  it('gives a single place a little area to fit, and leaves a wide box alone', () => {
    const [west, south, east, north] = fittable([-3.8, 43.4, -3.8, 43.4])
    expect(east - west).toBeCloseTo(0.002)
    expect(north - south).toBeCloseTo(0.002)
    expect((west + east) / 2).toBeCloseTo(-3.8)
    expect(fittable([0, 0, 1, 1])).toEqual([0, 0, 1, 1])
  })
})

describe('cityArea', () => {
  const santander = { latitude: 43.4623, longitude: -3.81 }

  it('is the centre give or take the city radius, wider in longitude away from the equator', () => {
    const [west, south, east, north] = cityArea(santander)
    expect(north - south).toBeCloseTo(2 * CITY_RADIUS_DEGREES)
    expect(east - west).toBeGreaterThan(north - south)
    expect(insideBbox([west, south, east, north], -3.78676, 43.47671)).toBe(true) // Playa del Sardinero
    expect(insideBbox([west, south, east, north], -8.6291, 41.1579)).toBe(false) // Porto
  })

  it('grows to hold the data shown, never past the widest area', () => {
    const data: [number, number, number, number] = [-4.2, 43.2, -3.5, 43.7]
    const grown = cityArea(santander, data)
    expect(grown[0]).toBeLessThanOrEqual(-4.2)
    expect(grown[3]).toBeGreaterThanOrEqual(43.7)
    // A layer spread over a continent does not make the search continental.
    const wide = cityArea(santander, [-10, 35, 5, 50])
    expect(wide[2] - wide[0]).toBeLessThanOrEqual(MAX_AREA_DEGREES)
    expect(wide[3] - wide[1]).toBeLessThanOrEqual(MAX_AREA_DEGREES)
  })

  it('is always a box the geocode route accepts', () => {
    for (const center of [santander, { latitude: 41.1579, longitude: -8.6291 }, { latitude: 0, longitude: 179.99 }, { latitude: 89.9, longitude: 0 }, { latitude: 0, longitude: 0 }]) {
      const box = cityArea(center)
      expect(bboxSchema.safeParse(boxParameter(box)).success, JSON.stringify(center)).toBe(true)
    }
  })
})

describe('mapRegistry', () => {
  it('knows which map answers a layer: the first registered, or the one whose table just asked', () => {
    const offA = registerMap('map-a', ['1', '2'], () => null)
    const offB = registerMap('map-b', ['2', '3'], () => null)
    expect(mapFor('1')).toBe('map-a')
    expect(mapFor('2')).toBe('map-a')
    expect(mapFor('3')).toBe('map-b')
    expect(mapFor('4')).toBeUndefined()
    preferMap('map-b')
    expect(mapFor('2')).toBe('map-b')
    // A preference for a map without the layer does not take it away from the one that has it.
    expect(mapFor('1')).toBe('map-a')
    offA()
    offB()
    expect(mapFor('2')).toBeUndefined()
  })
})
