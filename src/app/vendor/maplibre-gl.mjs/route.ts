import { MAPLIBRE_FILE } from '@/map/maplibreFiles'
import { vendorFileRoute } from '../vendorFile'

// MapLibre as the browser loads it: a module of its own (src/map/loadMapLibre.ts), not a webpack chunk.
export const GET = vendorFileRoute(MAPLIBRE_FILE)
