import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

// The READMEs of src/'s folders name their files in backticks: a renamed or moved file must take
// its README along. A path is read from the README's folder, from the repository's root, or from
// src/ (`@/…` too); a `*` stands for one folder name.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const PATH_LIKE = /^[\w@.[\]*-]+(\/[\w.[\]*-]+)*\/?$/
const FILE_OR_FOLDER = /\.(tsx?|mjs|json|md|css)$|\/$/

const readmes = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => path.basename(file) === 'README.md')
  .map((file) => path.join('src', file))

/** Whether `relative` (its `*` segments: any folder) exists under `base`. */
function exists(base: string, relative: string): boolean {
  const [first, ...rest] = relative.split('/').filter(Boolean)
  if (first === undefined) return existsSync(base)
  if (first !== '*') return existsSync(path.join(base, first)) && exists(path.join(base, first), rest.join('/'))
  if (!existsSync(base)) return false
  return readdirSync(base, { withFileTypes: true }).some((entry) => entry.isDirectory() && exists(path.join(base, entry.name), rest.join('/')))
}

/** The backticked paths of a README that name nothing. */
function missingPaths(readme: string, text = readFileSync(path.join(ROOT, readme), 'utf8')): string[] {
  const folder = path.join(ROOT, path.dirname(readme))
  const named = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!).filter((token) => PATH_LIKE.test(token) && FILE_OR_FOLDER.test(token))
  return named.filter((token) => {
    const relative = token.startsWith('@/') ? `src/${token.slice(2)}` : token
    return ![folder, ROOT, path.join(ROOT, 'src')].some((base) => exists(base, relative))
  })
}

describe('the READMEs of src/', () => {
  it('are found', () => {
    expect(readmes.length).toBeGreaterThanOrEqual(5)
  })

  it.each(readmes)('%s names only files and folders that exist', (readme) => {
    expect(missingPaths(readme)).toEqual([])
  })

  it('would catch a renamed file', () => {
    const readme = 'src/layers/README.md'
    const text = readFileSync(path.join(ROOT, readme), 'utf8')
    expect(missingPaths(readme, text.replace('`entry/features.ts`', '`entry/layerFeatures.ts`'))).toEqual(['entry/layerFeatures.ts'])
  })
})
