import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { describe, expect, it } from 'vitest'

import { basemapTileCutter } from '@/map/bundledBasemap'
import { BASEMAP_SOURCE_LAYER } from '@/map/style'

const cut = basemapTileCutter()
const kinds = (tile: Uint8Array) => {
  const layer = new VectorTile(new PbfReader(tile)).layers[BASEMAP_SOURCE_LAYER]
  return new Set(Array.from({ length: layer?.length ?? 0 }, (_, index) => layer!.feature(index).properties.kind))
}

describe('the bundled basemap as vector tiles', () => {
  it('has land and borders where a city is, in a few kB', () => {
    // Santander at zoom 8 (Spain's coast; the French border in reach) and the whole world at zoom 0.
    const santander = cut(8, 125, 94)
    expect(santander).toBeDefined()
    expect(kinds(santander!)).toContain('land')
    expect(santander!.length).toBeLessThan(20_000)
    expect(kinds(cut(0, 0, 0)!)).toEqual(new Set(['land', 'border']))
  })

  it('has nothing in the open sea', () => {
    expect(cut(8, 0, 128)).toBeUndefined()
  })
})
