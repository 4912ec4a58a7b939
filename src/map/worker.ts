import { version } from 'maplibre-gl/package.json'

/**
 * MapLibre's worker, served by src/app/vendor/maplibre-gl-worker.mjs (the bundle cannot find it by
 * itself); the version in the URL lets it be cached for good.
 */
export const MAPLIBRE_WORKER_PATH = '/vendor/maplibre-gl-worker.mjs'
export const MAPLIBRE_WORKER_URL = `${MAPLIBRE_WORKER_PATH}?v=${version}`
/** The installed file, from the server's working directory (next.config.mjs makes the standalone output ship it). */
export const MAPLIBRE_WORKER_FILE = 'node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'
export const MAPLIBRE_WORKER_HEADERS = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }
