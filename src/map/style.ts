/**
 * Basemap choice for MapLibre, from Site settings → Map (and a city's own basemap): a free online
 * style with no token by default, Mapbox with PUBLIC_MAP_TOKEN, a city's PMTiles archive, or the
 * bundled Natural Earth basemap, which is also the fallback when an online one does not load.
 */
import type { StyleSpecification } from 'maplibre-gl'
import { version as worldAtlasVersion } from 'world-atlas/package.json'

export type BasemapKind = 'auto' | 'url' | 'pmtiles' | 'offline'

export type StyleSetting = { kind?: BasemapKind | null; url?: string | null }

/** An online basemap that has not loaded after this long gives way to the bundled one. */
export const BASEMAP_TIMEOUT_MS = 5_000

/** OpenFreeMap's public style: vector tiles, no token, no account (style, tiles, fonts, sprites on one origin). */
export const OPENFREEMAP_STYLE = 'https://tiles.openfreemap.org/styles/liberty'
export const MAPBOX_STYLE = 'mapbox://styles/mapbox/streets-v12'
/** Glyphs and sprites for the Protomaps basemap: the project's own public assets (fonts as PBF ranges, sprites v4). */
export const PROTOMAPS_ASSETS = 'https://protomaps.github.io/basemaps-assets'
/** The bundled basemap: Natural Earth land and borders as vector tiles, cut by the app (src/app/basemap/tiles). */
export const BASEMAP_TILES_PATH = '/basemap/tiles'
/** The data changes only with the package: its version in the URL lets browsers keep tiles for good. */
export const BASEMAP_TILES_TEMPLATE = `${BASEMAP_TILES_PATH}/{z}/{x}/{y}?v=${worldAtlasVersion}`
/** Beyond this zoom MapLibre enlarges the last tiles: Natural Earth 1:50m holds no more detail. */
export const BASEMAP_TILE_MAX_ZOOM = 8
export const BASEMAP_SOURCE_LAYER = 'basemap'

export type Basemap =
  | { kind: 'online'; style: string }
  | { kind: 'pmtiles'; archive: string }
  | { kind: 'offline' }

const MAPBOX_API = 'https://api.mapbox.com'
const isMapboxUrl = (url: string) => url.startsWith('mapbox://') || url.startsWith(`${MAPBOX_API}/`)
/** https, or plain http to this machine (a local tile server while developing and testing). */
const WEB_URL = /^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/)[^\s"'<>]+$/i
const isPmtiles = (url: string) => WEB_URL.test(url) && /\.pmtiles([?#]|$)/i.test(url)

/** Site settings' check of a basemap URL: a message for editors, or true. */
export function validateBasemapUrl(value: string | null | undefined, kind: 'url' | 'pmtiles'): string | true {
  const url = value?.trim() ?? ''
  if (kind === 'pmtiles') return isPmtiles(url) ? true : 'Use the https:// address of a .pmtiles archive'
  return WEB_URL.test(url) || /^mapbox:\/\/styles\/[\w.-]+\/[\w.-]+$/.test(url) ? true : 'Use an https:// style URL or mapbox://styles/…'
}

/**
 * The basemap to show. A city's own basemap (a PMTiles archive or a style URL) wins over the
 * site's; no setting means Mapbox streets with a token and OpenFreeMap without one.
 */
export function chooseBasemap(setting: StyleSetting | null | undefined, mapboxToken?: string, cityBasemap?: string | null): Basemap {
  const own = cityBasemap?.trim()
  if (own) {
    if (isPmtiles(own)) return { kind: 'pmtiles', archive: own }
    if (validateBasemapUrl(own, 'url') === true && (!isMapboxUrl(own) || mapboxToken)) return { kind: 'online', style: own }
  }
  const url = setting?.url?.trim()
  switch (setting?.kind) {
    case 'offline':
      return { kind: 'offline' }
    case 'pmtiles':
      return url && isPmtiles(url) ? { kind: 'pmtiles', archive: url } : { kind: 'offline' }
    case 'url':
      if (!url || validateBasemapUrl(url, 'url') !== true || (isMapboxUrl(url) && !mapboxToken)) return { kind: 'offline' }
      return { kind: 'online', style: url }
    default:
      return { kind: 'online', style: mapboxToken ? MAPBOX_STYLE : OPENFREEMAP_STYLE }
  }
}

/** Colours of the bundled basemap; marker colours (MapLayers, ALERT_COLOURS) stay distinct from them. */
export const OFFLINE_COLOURS = { sea: '#a8cbe0', land: '#f1eee6', border: '#8c8a9a' } as const

/**
 * The bundled basemap: sea as background, Natural Earth land over it (lakes are its holes) and
 * country borders; no glyphs or sprites, so it draws with no network beyond this app.
 * `tilesUrl`: absolute, since MapLibre's workers fetch tiles from their own script's location.
 */
export function offlineStyle(tilesUrl: string): StyleSpecification {
  return {
    version: 8,
    name: 'City Dashboard offline (Natural Earth)',
    sources: {
      'natural-earth': { type: 'vector', tiles: [tilesUrl], maxzoom: BASEMAP_TILE_MAX_ZOOM, attribution: 'Natural Earth (public domain)' },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': OFFLINE_COLOURS.sea } },
      {
        id: 'land',
        type: 'fill',
        source: 'natural-earth',
        'source-layer': BASEMAP_SOURCE_LAYER,
        filter: ['==', ['get', 'kind'], 'land'],
        paint: { 'fill-color': OFFLINE_COLOURS.land },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'natural-earth',
        'source-layer': BASEMAP_SOURCE_LAYER,
        filter: ['==', ['get', 'kind'], 'border'],
        paint: { 'line-color': OFFLINE_COLOURS.border, 'line-width': 1, 'line-dasharray': [3, 2] },
      },
    ],
  }
}

/**
 * MapLibre does not speak `mapbox://`: rewrite styles, sprites, fonts and tilesets to the HTTP
 * API and add the access token. Other URLs pass through untouched (the token never leaves for them).
 */
export function mapboxRequestUrl(url: string, token: string | undefined): string {
  if (!token || !isMapboxUrl(url)) return url
  let https = url
  if (url.startsWith('mapbox://styles/')) https = `${MAPBOX_API}/styles/v1/${url.slice('mapbox://styles/'.length)}`
  else if (url.startsWith('mapbox://sprites/')) https = `${MAPBOX_API}/styles/v1/${spritePath(url.slice('mapbox://sprites/'.length))}`
  else if (url.startsWith('mapbox://fonts/')) https = `${MAPBOX_API}/fonts/v1/${url.slice('mapbox://fonts/'.length)}`
  else if (url.startsWith('mapbox://')) https = `${MAPBOX_API}/v4/${url.slice('mapbox://'.length)}.json?secure`
  const parsed = new URL(https)
  parsed.searchParams.set('access_token', token)
  return parsed.toString()
}

// mapbox://sprites/user/style@2x.png → styles/v1/user/style/sprite@2x.png
function spritePath(rest: string): string {
  const match = /^([^/]+\/[^/@.]+)(@2x)?(\.png|\.json)?$/.exec(rest)
  if (!match) return rest
  return `${match[1]}/sprite${match[2] ?? ''}${match[3] ?? ''}`
}
