import { readFileSync } from 'node:fs'
import path from 'node:path'

import { MAPLIBRE_URL, MAPLIBRE_WORKER_URL } from '@/map/maplibreFiles'

/** How Next names the map canvas's dynamic import (src/blocks/MapView/Component.tsx) in its loadable manifest. */
const MAP_CANVAS_IMPORT = 'blocks/MapView/Component.tsx -> ./MapCanvas'

let files: string[] | undefined

/**
 * The map's code: its component and CSS by the URLs the build gave them (from the loadable manifest
 * Next writes for every dynamic import; none where there is no build to read, `next dev` and tests,
 * and they then load as before, only later), MapLibre and its worker from /vendor.
 */
function mapCodeUrls(): string[] {
  if (!files) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(process.cwd(), '.next', 'react-loadable-manifest.json'), 'utf8')) as Record<string, { files?: string[] }>
      files = (manifest[MAP_CANVAS_IMPORT]?.files ?? []).map((file) => `/_next/${file}`)
    } catch {
      files = []
    }
  }
  return [...files, MAPLIBRE_URL, MAPLIBRE_WORKER_URL]
}

/**
 * On a slow network the map's download is most of the wait for it, and the page itself starts it
 * only once it has hydrated. Named in the HTML, the browser fetches it at idle priority from the
 * start (no script of the page's own waits for it, nor its load event), and the map takes it from
 * the cache when it is made. One per page, for any number of maps.
 */
export function MapCodePrefetch() {
  return (
    <>
      {mapCodeUrls().map((href) => (
        <link key={href} rel="prefetch" href={href} />
      ))}
    </>
  )
}
