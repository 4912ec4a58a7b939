import { BUNDLED_BASEMAP_HEADERS, bundledBasemapJson } from '@/map/bundledBasemap'

// Made once at build time and served as a static file: the offline basemap needs no network.
// The production build also keeps it compressed (src/server/precompressed.ts).
export const dynamic = 'force-static'

export function GET() {
  return new Response(bundledBasemapJson(), { headers: BUNDLED_BASEMAP_HEADERS })
}
