import { LRUCache } from 'lru-cache'

import { BASEMAP_TILE_HEADERS, basemapTileCutter, type TileCutter } from '@/map/bundledBasemap'
import { BASEMAP_TILE_MAX_ZOOM } from '@/map/style'
import { tileAddressSchema } from '@/map/tileAddress'
import { withErrorHandling } from '@/server/errors'

// The bundled basemap's vector tiles (src/map/bundledBasemap.ts): cut from an index made on the
// first request (the server's warm-up makes that request). Sent as they are: a tile is tens to a
// few thousand bytes, and an App Router handler's own Content-Encoding is dropped by Next.
const addressSchema = tileAddressSchema(BASEMAP_TILE_MAX_ZOOM)
let cutter: TileCutter | undefined
const tiles = new LRUCache<string, Uint8Array | { empty: true }>({ max: 2_000 })

export const GET = withErrorHandling(async (_request: Request, { params }: { params: Promise<Record<'z' | 'x' | 'y', string>> }) => {
  const { z, x, y } = addressSchema.parse(await params)
  const key = `${z}/${x}/${y}`
  let tile = tiles.get(key)
  if (!tile) {
    cutter ??= basemapTileCutter()
    tile = cutter(z, x, y) ?? { empty: true }
    tiles.set(key, tile)
  }
  if (!(tile instanceof Uint8Array)) return new Response(null, { status: 204, headers: { 'Cache-Control': BASEMAP_TILE_HEADERS['Cache-Control'] } })
  return new Response(new Uint8Array(tile), { headers: BASEMAP_TILE_HEADERS })
})
