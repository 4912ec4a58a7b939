import { MAPLIBRE_WORKER_FILE } from '@/map/maplibreFiles'
import { vendorFileRoute } from '../vendorFile'

// MapLibre's worker, which MapLibre (src/app/vendor/maplibre-gl.mjs) is told to start from here.
export const GET = vendorFileRoute(MAPLIBRE_WORKER_FILE)
