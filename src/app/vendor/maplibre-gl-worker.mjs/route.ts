import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { withErrorHandling } from '@/server/errors'
import { MAPLIBRE_WORKER_FILE, MAPLIBRE_WORKER_HEADERS } from '@/map/worker'

// MapLibre finds its worker next to its own module file, which a webpack chunk is not:
// the map asks for it here instead (see MapCanvas), served from the installed package.
// From the working directory, not require.resolve (webpack turns that into a module id).
// The production build also keeps it compressed (src/server/precompressed.ts).
const workerPath = path.join(process.cwd(), MAPLIBRE_WORKER_FILE)
let worker: Promise<Buffer> | undefined

export const GET = withErrorHandling(async () => {
  worker ??= readFile(workerPath)
  return new Response(new Uint8Array(await worker), { headers: MAPLIBRE_WORKER_HEADERS })
})
