// The floor of the map benchmarks: a bare MapLibre page drawing the same data over the same basemap
// as the app's map, with nothing else on the page. Of the app it takes only the basemap's style,
// the tiles' layer name and how a first view fits the data: the floor measures MapLibre, the host
// and the browser, not the app.

import { readFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { brotliCompressSync, constants, gunzipSync, gzipSync } from 'node:zlib'

import { TILE_MAX_ZOOM, TILE_SOURCE_LAYER } from '../src/layers/shared/tileFeatures'
import type { Feature } from '../src/ngsi'
import { boxOfFeatures, FIT_OPTIONS, fittable, unionOf } from '@/layers/client/map/bounds'
import { offlineStyle } from '../src/map/style'

export type MapFloorOptions = {
  port: number
  /** The app's URL of a bundled basemap tile `z/x/y`: fetched once, then answered from memory. */
  basemapTile: (address: string) => string
  /** Name → a gzipped GeoJSON FeatureCollection, drawn by `?data=<name>` (several on the phone page). */
  points?: Record<string, Buffer>
  /** The app's URL of a layer's vector tile `z/x/y`, drawn by `?tiles`. */
  layerTile?: (address: string) => string
}

const CIRCLE_PAINT = { 'circle-radius': 5, 'circle-color': '#d81b60', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 }

/**
 * `/`: a 1150 × 480 map at Santander; `?data=<name>` or `?tiles` adds the points once the map has
 * loaded, and the body's `data-drawn` turns true at the next `idle`.
 */
function desktopPage(port: number): string {
  return `<!doctype html><html><head><link rel="stylesheet" href="/maplibre-gl.css"></head><body style="margin:0">
<div id="map" style="width:1150px;height:480px"></div>
<script type="module">
import { Map, setWorkerUrl } from '/maplibre-gl.mjs'
setWorkerUrl('/maplibre-gl-worker.mjs')
const search = new URLSearchParams(location.search)
const name = search.get('data')
const map = new Map({ container: 'map', style: ${JSON.stringify(offlineStyle(`http://127.0.0.1:${port}/basemap/{z}/{x}/{y}`))}, center: [-3.81, 43.462], zoom: 12 })
const data = name && fetch('/' + name + '.geojson').then((response) => response.json())
map.on('load', async () => {
  if (search.has('tiles')) {
    map.addSource('points', { type: 'vector', tiles: [location.origin + '/tiles/{z}/{x}/{y}'], maxzoom: ${TILE_MAX_ZOOM} })
    map.addLayer({ id: 'points', type: 'circle', source: 'points', 'source-layer': '${TILE_SOURCE_LAYER}', paint: ${JSON.stringify(CIRCLE_PAINT)} })
  } else {
    map.addSource('points', { type: 'geojson', data: await data })
    map.addLayer({ id: 'points', type: 'circle', source: 'points', paint: ${JSON.stringify(CIRCLE_PAINT)} })
  }
  map.once('idle', () => document.body.dataset.drawn = 'true')
})
</script></body></html>`
}

type Collection = { features: Feature[] }

/**
 * `/phone?data=<name>&data=…&height=<px>`: a phone page whose only content is a full-width map of
 * that height, the points in its first style (as circles, in the HTML: no request waits for them)
 * and its view fitted to them as the app's is. It prefetches MapLibre's worker as the app's page
 * does; its `.map-frame` turns `aria-busy="false"` at MapLibre's `load`, the app's moment.
 */
function phonePage(port: number, names: string[], collections: Collection[], height: number): string {
  const basemap = offlineStyle(`http://127.0.0.1:${port}/basemap/{z}/{x}/{y}`)
  const box = unionOf(collections.map(({ features }) => boxOfFeatures(features)))
  const style = {
    ...basemap,
    sources: { ...basemap.sources, ...Object.fromEntries(names.map((name, index) => [`points-${name}`, { type: 'geojson', data: collections[index] }])) },
    layers: [...basemap.layers, ...names.map((name) => ({ id: `points-${name}`, type: 'circle', source: `points-${name}`, paint: CIRCLE_PAINT }))],
  }
  return `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/maplibre-gl.css"><link rel="prefetch" href="/maplibre-gl-worker.mjs">
</head><body style="margin:0"><div class="map-frame" aria-busy="true" style="height:${height}px"><div id="map" style="height:100%"></div></div>
<script type="module">
import { Map, setWorkerUrl } from '/maplibre-gl.mjs'
setWorkerUrl('/maplibre-gl-worker.mjs')
const map = new Map({ container: 'map', style: ${JSON.stringify(style)}, bounds: ${JSON.stringify(box && fittable(box))}, fitBoundsOptions: ${JSON.stringify(FIT_OPTIONS)}, fadeDuration: 0 })
map.once('load', () => document.querySelector('.map-frame').setAttribute('aria-busy', 'false'))
</script></body></html>`
}

/** The bytes as sent (fetch would unpack them) and their encoding: the floor serves tiles as the app does. */
export function compressedGet(url: string) {
  return new Promise<{ status: number; body: Buffer; encoding?: string }>((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => resolve({ status: answer.statusCode ?? 500, body: Buffer.concat(chunks), encoding: answer.headers['content-encoding'] }))
      })
      .on('error', reject)
  })
}

/** As the app serves its versioned static files: a second request (the worker after its prefetch, a tile MapLibre enlarges) is answered by the browser's cache. */
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' }
const brotli = (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })

export function startMapFloor({ port, basemapTile, points = {}, layerTile }: MapFloorOptions): Promise<http.Server> {
  const dist = path.join('node_modules', 'maplibre-gl', 'dist')
  // MapLibre's files as the app's build keeps them (src/server/precompressed.ts): brotli at its best
  // quality, seconds for MapLibre's bundle, so before the first visit.
  const files = new Map(
    ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'].map((name) => {
      const raw = readFileSync(path.join(dist, name))
      return [name, { raw, br: brotli(raw) }] as const
    }),
  )
  const collections = new Map<string, Collection>()
  const collection = (name: string) => {
    if (!collections.has(name)) collections.set(name, JSON.parse(gunzipSync(points[name]!).toString()) as Collection)
    return collections.get(name)!
  }
  const tiles = new Map<string, ReturnType<typeof compressedGet>>()
  const proxiedTile = (response: http.ServerResponse, url: string) => {
    if (!tiles.has(url)) tiles.set(url, compressedGet(url))
    void tiles.get(url)!.then(({ status, body, encoding }) =>
      response
        .writeHead(status, status === 200 ? { 'content-type': 'application/vnd.mapbox-vector-tile', ...IMMUTABLE, ...(encoding ? { 'content-encoding': encoding } : {}) } : {})
        .end(status === 200 ? body : undefined),
    )
  }
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://floor')
    const file = url.pathname.slice(1)
    if (url.pathname === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(desktopPage(port))
    if (url.pathname === '/phone') {
      const names = url.searchParams.getAll('data').filter((name) => points[name])
      const html = gzipSync(phonePage(port, names, names.map(collection), Number(url.searchParams.get('height')) || 300))
      return response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(html)
    }
    if (file.startsWith('basemap/')) return proxiedTile(response, basemapTile(file.slice('basemap/'.length)))
    if (layerTile && file.startsWith('tiles/')) return proxiedTile(response, layerTile(file.slice('tiles/'.length)))
    const name = file.replace(/\.geojson$/, '')
    if (file.endsWith('.geojson') && points[name]) {
      return response.writeHead(200, { 'content-type': 'application/geo+json', 'content-encoding': 'gzip' }).end(points[name])
    }
    const maplibre = files.get(file)
    if (maplibre) {
      const type = file.endsWith('.css') ? 'text/css' : 'text/javascript'
      const { raw, br } = maplibre
      const acceptsBrotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''))
      return response
        .writeHead(200, { 'content-type': type, ...IMMUTABLE, vary: 'accept-encoding', ...(acceptsBrotli ? { 'content-encoding': 'br' } : {}) })
        .end(acceptsBrotli ? br : raw)
    }
    response.writeHead(404).end()
  })
  return new Promise<http.Server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}
