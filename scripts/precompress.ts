/**
 * The build's last step: every static file the standalone server sends (Next's `/_next/static`,
 * MapLibre and its worker, the bundled basemap) compressed once, with brotli at its best and gzip at
 * level 9, into `.next/precompressed` with a manifest the server hook reads at start
 * (src/server/precompressed.ts).
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

import pLimit from 'p-limit'

import { type Encoding, ENCODINGS, MANIFEST_FILE, PRECOMPRESSED_DIR, type PrecompressedManifest } from '../src/server/precompressed'
import { MAPLIBRE_FILE, MAPLIBRE_HEADERS, MAPLIBRE_PATH, MAPLIBRE_WORKER_FILE, MAPLIBRE_WORKER_PATH } from '../src/map/maplibreFiles'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const STATIC_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
}
// Below this, compression saves less than a request's headers weigh.
const MIN_BYTES = 1024

type Source = { url: string; type: string; cacheControl: string; bytes: Buffer }

const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) =>
    promisify(brotliCompress)(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 9 }),
}

/** Next's static files, as the standalone server serves them from `<standalone>/.next/static`. */
function nextStaticSources(standaloneDir: string): Source[] {
  const root = path.join(standaloneDir, '.next', 'static')
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => STATIC_TYPES[path.extname(file)] && statSync(path.join(root, file)).isFile())
    .map((file) => ({
      url: `/_next/static/${file.split(path.sep).join('/')}`,
      type: STATIC_TYPES[path.extname(file)] as string,
      cacheControl: IMMUTABLE,
      bytes: readFileSync(path.join(root, file)),
    }))
}

/** The app routes whose answer never changes within a build. */
const appRouteSources = (): Source[] =>
  [
    [MAPLIBRE_PATH, MAPLIBRE_FILE],
    [MAPLIBRE_WORKER_PATH, MAPLIBRE_WORKER_FILE],
  ].map(([url, file]) => ({ url, type: MAPLIBRE_HEADERS['Content-Type'], cacheControl: MAPLIBRE_HEADERS['Cache-Control'], bytes: readFileSync(file) }))

/** Writes `<standaloneDir>/.next/precompressed` afresh; returns the bytes before and after (brotli). */
export async function precompressAssets(standaloneDir: string): Promise<{ assets: number; rawBytes: number; brotliBytes: number }> {
  const outDir = path.join(standaloneDir, PRECOMPRESSED_DIR)
  rmSync(outDir, { recursive: true, force: true })
  const sources = [...nextStaticSources(standaloneDir), ...appRouteSources()].filter((source) => source.bytes.length >= MIN_BYTES)
  const manifest: PrecompressedManifest = {}
  const limit = pLimit(os.availableParallelism())
  let rawBytes = 0
  let brotliBytes = 0
  await Promise.all(
    sources.map((source) =>
      limit(async () => {
        const files: PrecompressedManifest[string]['files'] = {}
        for (const encoding of ENCODINGS) {
          const compressed = await compressors[encoding](source.bytes)
          // Not worth a second copy when it barely shrinks (already compressed formats).
          if (compressed.length > source.bytes.length * 0.9) continue
          const file = `${source.url.slice(1)}.${encoding}`
          mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true })
          writeFileSync(path.join(outDir, file), compressed)
          files[encoding] = { file, size: compressed.length }
        }
        if (!files.br && !files.gzip) return
        manifest[source.url] = {
          type: source.type,
          cacheControl: source.cacheControl,
          hash: createHash('sha256').update(source.bytes).digest('hex').slice(0, 32),
          files,
        }
        rawBytes += source.bytes.length
        brotliBytes += files.br?.size ?? files.gzip?.size ?? 0
      }),
    ),
  )
  mkdirSync(outDir, { recursive: true })
  writeFileSync(path.join(outDir, MANIFEST_FILE), JSON.stringify(manifest))
  return { assets: Object.keys(manifest).length, rawBytes, brotliBytes }
}
