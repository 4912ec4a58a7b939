import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { pipeline } from 'node:stream'

import Negotiator from 'negotiator'
import { z } from 'zod'

import { clientHasCurrent } from './conditional'

/**
 * Static answers compressed once, by the build (scripts/precompress.ts), and sent as they are by the
 * server hook: Next would compress the same file again for every request on the server's one
 * thread, delaying every other answer meanwhile (figures: docs/performance.md).
 */
export const ENCODINGS = ['br', 'gzip'] as const
export type Encoding = (typeof ENCODINGS)[number]

/** Under the standalone server's working directory; absent in development. */
export const PRECOMPRESSED_DIR = path.join('.next', 'precompressed')
export const MANIFEST_FILE = 'manifest.json'

const compressedFile = z.object({ file: z.string().min(1), size: z.number().int().nonnegative() })
const asset = z.object({
  type: z.string().min(1),
  cacheControl: z.string().min(1),
  /** Of the uncompressed bytes: each encoding's ETag is derived from it. */
  hash: z.string().regex(/^[0-9a-f]{16,64}$/),
  files: z.object({ br: compressedFile.optional(), gzip: compressedFile.optional() }),
})
/** URL path → its compressed files, relative to the manifest's folder. */
export const manifestSchema = z.record(z.string().startsWith('/'), asset)
export type PrecompressedManifest = z.infer<typeof manifestSchema>
type Asset = z.infer<typeof asset>

/** What the client accepts of `available`, br before gzip when it likes both alike; undefined when neither. */
export function chooseEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } })
  return negotiator.encodings([...available], { preferred: [...ENCODINGS] })[0] as Encoding | undefined
}

function decodedPath(url: string | undefined): string {
  try {
    return decodeURIComponent((url ?? '').split('?', 1)[0] as string)
  } catch {
    return ''
  }
}

const etagOf = (hash: string, encoding: Encoding) => `"${hash}-${encoding}"`

export type PrecompressedAssets = {
  /** Answers `request` when it asks for a precompressed asset in an encoding it accepts; false leaves it to Next. */
  answer(request: IncomingMessage, response: ServerResponse): boolean
  size: number
}

/**
 * The assets the manifest in `dir` lists, each file checked once here (a missing or changed file
 * leaves its asset to Next); undefined when there is no manifest (development, or an older build).
 */
export async function loadPrecompressedAssets(dir: string): Promise<PrecompressedAssets | undefined> {
  let text: string
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const assets = new Map<string, Asset>()
  for (const [url, entry] of Object.entries(manifestSchema.parse(JSON.parse(text)))) {
    const files: Asset['files'] = {}
    for (const encoding of ENCODINGS) {
      const compressed = entry.files[encoding]
      const found = compressed && (await stat(path.join(dir, compressed.file)).catch(() => undefined))
      if (compressed && found?.isFile() && found.size === compressed.size) files[encoding] = compressed
    }
    if (files.br || files.gzip) assets.set(url, { ...entry, files })
  }

  return {
    size: assets.size,
    answer(request, response) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false
      // Exactly a listed path once decoded (chunk paths hold `[slug]`): anything else is Next's to answer.
      const entry = assets.get(decodedPath(request.url))
      if (!entry) return false
      const encoding = chooseEncoding(request.headers['accept-encoding'], ENCODINGS.filter((name) => entry.files[name]))
      const compressed = encoding && entry.files[encoding]
      if (!encoding || !compressed) return false
      const etag = etagOf(entry.hash, encoding)
      const common = { ETag: etag, 'Cache-Control': entry.cacheControl, Vary: 'Accept-Encoding' }
      if (clientHasCurrent(request.headers['if-none-match'], etag)) {
        response.writeHead(304, common).end()
        return true
      }
      response.writeHead(200, { ...common, 'Content-Type': entry.type, 'Content-Encoding': encoding, 'Content-Length': compressed.size })
      if (request.method === 'HEAD') {
        response.end()
        return true
      }
      pipeline(createReadStream(path.join(dir, compressed.file)), response, (error) => {
        // A client that leaves early is no fault; a file that cannot be read is.
        if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(`Precompressed ${request.url} failed:`, error)
      })
      return true
    },
  }
}
