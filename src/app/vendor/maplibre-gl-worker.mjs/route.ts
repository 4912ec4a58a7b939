import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { withErrorHandling } from '@/http/errors'

// MapLibre finds its worker next to its own module file, which a webpack chunk is not:
// the map asks for it here instead (see MapCanvas), served from the installed package.
// From the working directory, not require.resolve (webpack turns that into a module id);
// next.config.mjs makes the standalone output ship the file.
const workerPath = path.join(process.cwd(), 'node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs')
let worker: Promise<Buffer> | undefined

export const GET = withErrorHandling(async () => {
  worker ??= readFile(workerPath)
  return new Response(new Uint8Array(await worker), {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      // The URL carries the package version: a new version is a new URL.
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  })
})
