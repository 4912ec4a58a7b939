import type { Topology } from 'topojson-specification'
import countries from 'world-atlas/countries-50m.json'
import land from 'world-atlas/land-50m.json'

import { naturalEarthBasemap } from './naturalEarth'

export const BUNDLED_BASEMAP_HEADERS = { 'Content-Type': 'application/geo+json', 'Cache-Control': 'public, max-age=86400' }

/** The bundled basemap as NATURAL_EARTH_URL serves it: by its route, or precompressed by the build. */
export const bundledBasemapJson = (): string => JSON.stringify(naturalEarthBasemap(land as unknown as Topology, countries as unknown as Topology))
