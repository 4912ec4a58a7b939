import { existsSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'

const SOURCES = ['src', 'payload.config.ts', 'next.config.mjs', 'package-lock.json', 'public']

async function newestSourceChange(): Promise<number> {
  let newest = 0
  for (const root of SOURCES.filter((entry) => existsSync(entry))) {
    const entries = statSync(root).isDirectory() ? await readdir(root, { recursive: true }) : ['']
    for (const entry of entries) newest = Math.max(newest, statSync(path.join(root, entry)).mtimeMs)
  }
  return newest
}

/** True when `.next` holds a production build newer than every source it was built from. */
export async function buildIsCurrent(): Promise<boolean> {
  const marker = path.join('.next', 'BUILD_ID')
  return existsSync(marker) && statSync(marker).mtimeMs > (await newestSourceChange())
}
