import type { Topology } from 'topojson-specification'
import countries from 'world-atlas/countries-50m.json'
import land from 'world-atlas/land-50m.json'

import { naturalEarthBasemap } from '@/map/naturalEarth'

// Made once at build time and served as a static file: the offline basemap needs no network.
export const dynamic = 'force-static'

export function GET() {
  return Response.json(naturalEarthBasemap(land as unknown as Topology, countries as unknown as Topology), {
    headers: { 'Content-Type': 'application/geo+json', 'Cache-Control': 'public, max-age=86400' },
  })
}
