import { fileURLToPath } from 'node:url'

import { parseDependencyTree } from 'dpdm'
import { describe, expect, it } from 'vitest'

// The import graph of src/ rolled up to its top-level folders (a file directly in src/, such as
// db.ts, is a folder of its own): two folders that import each other are one tangle, whatever
// the lint zones say. Type-only imports vanish at run time and are left out.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const folderOf = (file: string) => (file.startsWith('src/') ? file.split('/')[1] : undefined)

/** Each pair of folders that import each other, with one file-level import each way. */
async function folderPairs(): Promise<Map<string, string[]>> {
  const tree = await parseDependencyTree('src/**/*.{ts,tsx}', { context: ROOT, transform: true })
  const imports = new Map<string, Map<string, string>>()
  for (const [file, dependencies] of Object.entries(tree)) {
    const from = folderOf(file)
    if (!from) continue
    for (const dependency of dependencies ?? []) {
      const to = dependency.id ? folderOf(dependency.id) : undefined
      if (!to || to === from) continue
      const targets = imports.get(from) ?? new Map<string, string>()
      if (!targets.has(to)) targets.set(to, `${file} -> ${dependency.id}`)
      imports.set(from, targets)
    }
  }
  const pairs = new Map<string, string[]>()
  for (const [a, targets] of imports) {
    for (const [b, there] of targets) {
      const back = imports.get(b)?.get(a)
      if (a < b && back) pairs.set(`${a} <-> ${b}`, [there, back])
    }
  }
  return pairs
}

describe('top-level folders of src/', () => {
  it('never import each other', async () => {
    const pairs = [...(await folderPairs())].map(([pair, [there, back]]) => `${pair}: ${there}; ${back}`)
    expect(pairs, 'pairs of folders importing each other').toEqual([])
  }, 120_000)
})
