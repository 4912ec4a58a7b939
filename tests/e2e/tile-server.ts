import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { basemapTileCutter } from '@/map/bundledBasemap'

/** Colours of the stand-in online style: unlike the bundled offline basemap's, so a test can tell which drew. */
export const ONLINE_COLOURS = { sea: '#2f6f8f', land: '#d8c47a' } as const

export type TileServer = {
  url: string
  styleUrl: string
  /** `hang`: accept connections and never answer (an unreachable basemap that times out); `fail`: answer 503 to everything. */
  mode: 'ok' | 'hang' | 'fail'
  requests: string[]
  close(): Promise<void>
}

/**
 * A local stand-in for an online vector basemap (OpenFreeMap and the like): a style JSON and
 * Mapbox Vector Tiles cut on the fly from the Natural Earth data, as the app cuts its bundled basemap.
 */
export async function startTileServer(): Promise<TileServer> {
  const cut = basemapTileCutter()
  const server = http.createServer((request, response) => {
    tiles.requests.push(request.url ?? '')
    if (tiles.mode === 'hang') return
    const cors = { 'access-control-allow-origin': '*' }
    if (tiles.mode === 'fail') {
      response.writeHead(503, cors)
      return response.end()
    }
    if (request.url === '/style.json') {
      response.writeHead(200, { 'content-type': 'application/json', ...cors })
      return response.end(JSON.stringify(style(tiles.url)))
    }
    const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(request.url ?? '')
    if (!match) {
      response.writeHead(404, cors)
      return response.end()
    }
    const tile = cut(Number(match[1]), Number(match[2]), Number(match[3]))
    if (!tile) {
      response.writeHead(204, cors)
      return response.end()
    }
    response.writeHead(200, { 'content-type': 'application/x-protobuf', ...cors })
    response.end(Buffer.from(tile))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const tiles: TileServer = {
    url: `http://127.0.0.1:${port}`,
    styleUrl: `http://127.0.0.1:${port}/style.json`,
    mode: 'ok',
    requests: [],
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return tiles
}

function style(base: string) {
  return {
    version: 8,
    name: 'Stand-in online basemap',
    sources: { basemap: { type: 'vector', tiles: [`${base}/tiles/{z}/{x}/{y}.pbf`], maxzoom: 8, attribution: 'Natural Earth (test tiles)' } },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': ONLINE_COLOURS.sea } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'basemap', filter: ['==', ['get', 'kind'], 'land'], paint: { 'fill-color': ONLINE_COLOURS.land } },
    ],
  }
}
