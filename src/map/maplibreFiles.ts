import { version } from 'maplibre-gl/package.json'

/**
 * MapLibre's module and its worker, served by src/app/vendor/ from the installed package: the
 * browser loads the module as its own (not a webpack chunk) and MapLibre finds its worker next to
 * it. The version in the URLs lets them be cached for good.
 */
export const MAPLIBRE_PATH = '/vendor/maplibre-gl.mjs'
export const MAPLIBRE_URL = `${MAPLIBRE_PATH}?v=${version}`
export const MAPLIBRE_WORKER_PATH = '/vendor/maplibre-gl-worker.mjs'
export const MAPLIBRE_WORKER_URL = `${MAPLIBRE_WORKER_PATH}?v=${version}`
/** The installed files, from the server's working directory (next.config.mjs makes the standalone output ship them). */
export const MAPLIBRE_FILE = 'node_modules/maplibre-gl/dist/maplibre-gl.mjs'
export const MAPLIBRE_WORKER_FILE = 'node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'
export const MAPLIBRE_HEADERS = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }
