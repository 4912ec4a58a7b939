// Vector tiles of a layer too large to send whole: its cached body is read once per version into a
// point index (supercluster), and each tile is cut from it as Mapbox Vector Tiles (vt-pbf) with
// nearby points merged into clusters, so a tile stays small at any zoom whatever the layer's size.
import { gzipSync } from 'node:zlib'

import { LRUCache } from 'lru-cache'
import Supercluster, { type AnyProps, type PointFeature } from 'supercluster'
import { fromGeojsonVt } from 'vt-pbf'

import type { Feature } from '@/ngsi'
import { type TileAddress, tileAddressSchema } from '@/map/tileAddress'

import { eachFeature, type LayerBody } from './body'
import { TILE_MAX_ZOOM, TILE_SOURCE_LAYER, type TileProperties, tileProperties } from '../shared/tileFeatures'

/** Tile coordinate space (MVT extent), which supercluster also measures its radius in. */
const EXTENT = 4096
/** Points closer than 40 px on the map's 512-pixel tiles merge (MapLibre's own clusters use 50). */
const CLUSTER_RADIUS = (40 / 512) * EXTENT

/** z/x/y of a layer's tiles, as written in a tile URL. */
export const layerTileAddressSchema = tileAddressSchema(TILE_MAX_ZOOM)

/**
 * What the index keeps of each point: its position in two Float64Arrays and its tile properties as
 * JSON text, packed in shared buffers. As objects, 500,000 points' properties held ~150 MB of heap,
 * more than the server's cap; as text ~40 MB outside the heap, parsed back only for the points a
 * tile shows one by one (clusters carry counts only).
 */
class PointStore {
  readonly longitudes: Float64Array
  readonly latitudes: Float64Array
  /** Per point: where its text ends in its chunk. */
  private readonly ends: Uint32Array
  private readonly chunks: Buffer[] = []
  private pending: string[] = []
  private chunkBytes = 0
  size = 0

  constructor(capacity: number) {
    this.longitudes = new Float64Array(capacity)
    this.latitudes = new Float64Array(capacity)
    this.ends = new Uint32Array(capacity)
  }

  add(longitude: number, latitude: number, properties: TileProperties) {
    if (this.size === this.ends.length) return
    const text = JSON.stringify(properties)
    this.chunkBytes += Buffer.byteLength(text)
    this.pending.push(text)
    this.longitudes[this.size] = longitude
    this.latitudes[this.size] = latitude
    this.ends[this.size++] = this.chunkBytes
    if (this.pending.length === POINTS_PER_CHUNK) this.seal()
  }

  seal() {
    if (this.pending.length === 0) return
    this.chunks.push(Buffer.from(this.pending.join('')))
    this.pending = []
    this.chunkBytes = 0
  }

  properties(point: number): TileProperties {
    const chunk = this.chunks[Math.floor(point / POINTS_PER_CHUNK)]
    const start = point % POINTS_PER_CHUNK === 0 ? 0 : this.ends[point - 1]
    return JSON.parse(chunk.toString('utf8', start, this.ends[point])) as TileProperties
  }

  /**
   * The points as supercluster reads them: once each, in order (it keeps their `properties`, here
   * the point's number, and copies the coordinates), so each wrapper is garbage right away.
   */
  asClusterInput(): PointFeature<AnyProps>[] {
    const { size, longitudes, latitudes } = this
    const points = {
      length: size,
      *[Symbol.iterator]() {
        for (let point = 0; point < size; point++) {
          yield { type: 'Feature', geometry: { type: 'Point', coordinates: [longitudes[point], latitudes[point]] }, properties: point }
        }
      },
    }
    // Typed as objects; supercluster hands them back untouched in tiles.
    return points as unknown as PointFeature<AnyProps>[]
  }
}

const POINTS_PER_CHUNK = 4096

/** A feature's point: a point geometry as it is, any other by its first position. */
function positionOf(feature: Feature): [number, number] | undefined {
  let coordinates: unknown = (feature.geometry as { coordinates?: unknown }).coordinates
  while (Array.isArray(coordinates) && Array.isArray(coordinates[0])) coordinates = coordinates[0]
  if (!Array.isArray(coordinates) || typeof coordinates[0] !== 'number' || typeof coordinates[1] !== 'number') return undefined
  return [coordinates[0], coordinates[1]]
}

interface TileIndex {
  points: number
  /** The tile's MVT bytes, gzipped; undefined for a tile with nothing in it. */
  tile(address: TileAddress): Buffer | undefined
}

/** The body's features as points, clustered per zoom level. */
async function buildIndex(body: LayerBody): Promise<TileIndex> {
  const store = new PointStore(body.meta.count)
  await eachFeature(body, (feature) => {
    const position = positionOf(feature)
    if (position) store.add(position[0], position[1], tileProperties(feature))
  })
  store.seal()
  const clusters = new Supercluster({ radius: CLUSTER_RADIUS, extent: EXTENT, maxZoom: TILE_MAX_ZOOM - 1 }).load(store.asClusterInput())
  return {
    points: store.size,
    tile({ z: zoom, x, y }) {
      const tile = clusters.getTile(zoom, x, y)
      if (!tile || tile.features.length === 0) return undefined
      for (const feature of tile.features) {
        if (typeof feature.tags === 'number') feature.tags = store.properties(feature.tags) as never
      }
      return gzipSync(fromGeojsonVt({ [TILE_SOURCE_LAYER]: tile } as never, { version: 2, extent: EXTENT }))
    },
  }
}

export interface TileServiceOptions {
  /** Points held by all indexes together: past it the least recently used index is dropped. */
  maxPoints: number
  /** Bytes of cut tiles kept (gzipped). */
  maxTileBytes?: number
}

/**
 * Tiles of cached layer bodies. One index per body version (its ETag), built once however many
 * requests ask for it at the same time; indexes and cut tiles are bounded by an LRU each.
 */
export function createTileService({ maxPoints, maxTileBytes = 32 * 1024 * 1024 }: TileServiceOptions) {
  const indexes = new LRUCache<string, TileIndex>({ maxSize: maxPoints, sizeCalculation: (index) => Math.max(1, index.points) })
  const building = new Map<string, Promise<TileIndex>>()
  // An empty tile is kept as an empty buffer: asked again, it is not cut again.
  const tiles = new LRUCache<string, Buffer>({ maxSize: maxTileBytes, sizeCalculation: (bytes) => Math.max(1, bytes.byteLength) })

  function indexFor(body: LayerBody): Promise<TileIndex> {
    const known = indexes.get(body.etag)
    if (known) return Promise.resolve(known)
    let pending = building.get(body.etag)
    if (!pending) {
      pending = buildIndex(body)
        .then((index) => {
          indexes.set(body.etag, index)
          return index
        })
        .finally(() => building.delete(body.etag))
      building.set(body.etag, pending)
    }
    return pending
  }

  return {
    /** The gzipped tile of a body, or undefined when nothing lies in it. */
    async tile(body: LayerBody, address: TileAddress): Promise<Buffer | undefined> {
      const key = `${body.etag}/${address.z}/${address.x}/${address.y}`
      let bytes = tiles.get(key)
      if (!bytes) {
        bytes = (await indexFor(body)).tile(address) ?? Buffer.alloc(0)
        tiles.set(key, bytes)
      }
      return bytes.byteLength > 0 ? bytes : undefined
    },
  }
}

export type TileService = ReturnType<typeof createTileService>
