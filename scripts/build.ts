/**
 * `npm run build`: the production build, made complete for Next's standalone server. The server
 * (`.next/standalone/server.js`, what the Docker image and `npm start` run) serves `.next/static`
 * and `public` only from its own folder, and `next build` does not copy them there.
 */
import { cpSync, existsSync, rmSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { MANIFEST_FILE, PRECOMPRESSED_DIR } from '../src/server/precompressed'

import { precompressAssets } from './precompress'
import { runToEnd } from './processes'

const SOURCES = ['src', 'payload.config.ts', 'next.config.mjs', 'package-lock.json', 'public']
export const STANDALONE_DIR = path.join('.next', 'standalone')

async function newestSourceChange(): Promise<number> {
  let newest = 0
  for (const root of SOURCES.filter((entry) => existsSync(entry))) {
    const entries = statSync(root).isDirectory() ? await readdir(root, { recursive: true }) : ['']
    for (const entry of entries) newest = Math.max(newest, statSync(path.join(root, entry)).mtimeMs)
  }
  return newest
}

/** True when the standalone server has its static files beside it (`npm run build` copies them). */
export const standaloneIsComplete = () => existsSync(path.join(STANDALONE_DIR, '.next', 'static')) && existsSync(path.join(STANDALONE_DIR, PRECOMPRESSED_DIR, MANIFEST_FILE))

/** True when `.next` holds a complete production build newer than every source it was built from. */
export async function buildIsCurrent(): Promise<boolean> {
  const marker = path.join('.next', 'BUILD_ID')
  return existsSync(marker) && standaloneIsComplete() && statSync(marker).mtimeMs > (await newestSourceChange())
}

/** `next build`, then the static files and `public` copied beside the standalone server, and its static answers compressed once. */
export async function buildProduction(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await runToEnd(path.join('node_modules', '.bin', 'next'), ['build', '--webpack'], { env })
  for (const [from, to] of [
    [path.join('.next', 'static'), path.join(STANDALONE_DIR, '.next', 'static')],
    ['public', path.join(STANDALONE_DIR, 'public')],
  ]) {
    rmSync(to, { recursive: true, force: true })
    cpSync(from, to, { recursive: true })
  }
  const { assets, rawBytes, brotliBytes } = await precompressAssets(STANDALONE_DIR)
  console.log(`✓ ${assets} static answers precompressed: ${(rawBytes / 1e6).toFixed(1)} MB → ${(brotliBytes / 1e6).toFixed(1)} MB with brotli`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildProduction()
}
