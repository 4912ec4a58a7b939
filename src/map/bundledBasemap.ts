import { readFileSync } from 'node:fs'
import path from 'node:path'

import type { Topology } from 'topojson-specification'
import GeoJSONVT from 'geojson-vt'
import { fromGeojsonVt } from 'vt-pbf'

import { naturalEarthBasemap } from './naturalEarth'
import { BASEMAP_SOURCE_LAYER, BASEMAP_TILE_MAX_ZOOM } from './style'

/**
 * The bundled basemap as vector tiles, cut on request from Natural Earth (a few hundred bytes to a
 * few kB a tile): a map fetches the handful of tiles it shows, where the whole world as GeoJSON
 * was 350 kB of brotli for every first visit, and a phone's CPU spent seconds indexing it.
 * Server-side only: the world's data stays out of browser bundles.
 */
export const BASEMAP_TILE_HEADERS = { 'Content-Type': 'application/vnd.mapbox-vector-tile', 'Cache-Control': 'public, max-age=31536000, immutable' }

/** Natural Earth's TopoJSON, from the server's working directory (next.config.mjs makes the standalone output ship it). */
export const NATURAL_EARTH_FILES = ['node_modules/world-atlas/land-50m.json', 'node_modules/world-atlas/countries-50m.json'] as const

/**
 * Read when the tile index is made, then left to the garbage collector: imported, the two files
 * stayed in the server's memory for good, as source and as objects (figures: docs/performance.md).
 */
export function bundledBasemapCollection(): GeoJSON.FeatureCollection {
  const [land, countries] = NATURAL_EARTH_FILES.map((file) => JSON.parse(readFileSync(path.resolve(file), 'utf8')) as Topology)
  return naturalEarthBasemap(land, countries)
}

export type TileCutter = (z: number, x: number, y: number) => Uint8Array | undefined

/** Cuts the Natural Earth basemap into Mapbox Vector Tiles; a tile with nothing in it is `undefined`. */
export function basemapTileCutter(collection: GeoJSON.FeatureCollection = bundledBasemapCollection()): TileCutter {
  const index = new GeoJSONVT(collection, { maxZoom: BASEMAP_TILE_MAX_ZOOM, indexMaxZoom: 4, tolerance: 1 })
  return (z, x, y) => {
    const tile = index.getTile(z, x, y)
    return tile && tile.features.length > 0 ? fromGeojsonVt({ [BASEMAP_SOURCE_LAYER]: tile } as never, { version: 2 }) : undefined
  }
}
