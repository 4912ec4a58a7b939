import { version } from 'maplibre-gl/package.json'

/**
 * MapLibre's worker, served by src/app/vendor/maplibre-gl-worker.mjs (the bundle cannot find it by
 * itself); the version in the URL lets it be cached for good.
 */
export const MAPLIBRE_WORKER_URL = `/vendor/maplibre-gl-worker.mjs?v=${version}`
