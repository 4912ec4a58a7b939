import { gunzipSync, gzipSync } from 'node:zlib'

import { LRUCache } from 'lru-cache'

import { BASEMAP_TILE_HEADERS, basemapTileCutter, type TileCutter } from '@/map/bundledBasemap'
import { BASEMAP_TILE_MAX_ZOOM } from '@/map/style'
import { tileAddressSchema } from '@/map/tileAddress'
import { withErrorHandling } from '@/server/errors'

// The bundled basemap's vector tiles (src/map/bundledBasemap.ts): cut from an index made on the
// first request (the server's warm-up makes that request), gzipped once per tile.
const addressSchema = tileAddressSchema(BASEMAP_TILE_MAX_ZOOM)
let cutter: TileCutter | undefined
/** Gzipped tiles (a few kB each), or null for an empty one. */
const tiles = new LRUCache<string, Buffer | { empty: true }>({ max: 2_000 })

export const GET = withErrorHandling(async (request: Request, { params }: { params: Promise<Record<'z' | 'x' | 'y', string>> }) => {
  const { z, x, y } = addressSchema.parse(await params)
  const key = `${z}/${x}/${y}`
  let tile = tiles.get(key)
  if (!tile) {
    cutter ??= basemapTileCutter()
    const cut = cutter(z, x, y)
    tile = cut ? gzipSync(cut) : { empty: true }
    tiles.set(key, tile)
  }
  if (!Buffer.isBuffer(tile)) return new Response(null, { status: 204, headers: { 'Cache-Control': BASEMAP_TILE_HEADERS['Cache-Control'] } })
  // Every browser that runs MapLibre accepts gzip; a client that does not gets the tile unpacked.
  const gzip = /\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '')
  return new Response(new Uint8Array(gzip ? tile : gunzipSync(tile)), {
    headers: { ...BASEMAP_TILE_HEADERS, Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
  })
})
