import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { MAPLIBRE_HEADERS } from '@/map/maplibreFiles'
import { withErrorHandling } from '@/server/errors'

/**
 * The GET handler of a file of MapLibre's package under /vendor, read once. From the working
 * directory, not require.resolve (webpack turns that into a module id). The production build also
 * keeps it compressed (src/server/precompressed.ts).
 */
export function vendorFileRoute(file: string) {
  const filePath = path.join(process.cwd(), file)
  let bytes: Promise<Buffer> | undefined
  return withErrorHandling(async () => {
    bytes ??= readFile(filePath)
    return new Response(new Uint8Array(await bytes), { headers: MAPLIBRE_HEADERS })
  })
}
