/**
 * `npm run test:quick`: the check before a commit, in minutes: lint of the changed files, the
 * typecheck (incremental: the files a change reaches), the unit project, and the SQLite integration
 * files that import a changed module (directly or through a test helper). What changed is the working tree against HEAD (untracked
 * files included); with nothing uncommitted, the last commit. `npm test` stays the whole suite.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean)

function changedFiles(): string[] {
  const uncommitted = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')]
  const files = uncommitted.length > 0 ? uncommitted : git('diff', '--name-only', 'HEAD~1', 'HEAD')
  // Deleted files have nothing left to check.
  return [...new Set(files)].filter((file) => existsSync(file))
}

/** The module a specifier names, as a path from the repository root (aliases as vitest.config.ts has them). */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('@/') ? path.join('src', specifier.slice(2)) : specifier === '@payload-config' ? 'payload.config.ts' : specifier.startsWith('.') ? path.join(path.dirname(from), specifier) : undefined
  if (!base) return undefined
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => resolveImport(file, match[1]!)).filter((found) => found !== undefined)

/**
 * The SQLite integration files that import a changed module, directly or through the modules they
 * import, but not through the Payload config: it imports nearly everything (35 of 40 files for any
 * change in src/layers), which is what `npm test` is for.
 */
function integrationFilesImporting(changed: string[]): string[] {
  const wanted = new Set(changed)
  const tests = git('ls-files', '--cached', '--others', '--exclude-standard', 'tests/int').filter((file) => file.endsWith('.test.ts') && existsSync(file))
  return tests.filter((test) => {
    const seen = new Set<string>([test])
    const queue = [test]
    while (queue.length > 0) {
      const file = queue.pop()!
      if (wanted.has(file)) return true
      for (const imported of importsOf(file)) {
        if (wanted.has(imported)) return true
        if (imported !== 'payload.config.ts' && !seen.has(imported)) {
          seen.add(imported)
          queue.push(imported)
        }
      }
    }
    return false
  })
}

function run(label: string, command: string, args: string[]): Promise<{ label: string; ok: boolean; ms: number }> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } })
    child.on('exit', (code) => resolve({ label, ok: code === 0, ms: Date.now() - started }))
  })
}

const started = Date.now()
const changed = changedFiles()
const code = changed.filter((file) => /\.(ts|tsx|mjs|js)$/.test(file))
console.log(`▶ ${changed.length} changed files, ${code.length} of them code`)

const bin = (name: string) => `node_modules/.bin/${name}`
const intFiles = integrationFilesImporting(code)
// Side by side: the unit and integration runs each keep about one core busy.
const results = await Promise.all([
  ...(code.length > 0 ? [run('lint (changed files)', bin('eslint'), ['--no-warn-ignored', ...code])] : []),
  run('typecheck (incremental)', bin('tsc'), ['--noEmit']),
  run('unit', bin('vitest'), ['run', '--project', 'unit']),
  ...(intFiles.length > 0 ? [run(`int (${intFiles.length} files importing a change)`, bin('vitest'), ['run', '--project', 'int', ...intFiles])] : []),
])

console.log('\nstep                              took    result')
for (const { label, ok, ms } of results) console.log(`${label.padEnd(32)}  ${`${(ms / 1000).toFixed(0)} s`.padStart(5)}   ${ok ? 'passed' : 'FAILED'}`)
console.log(`whole check: ${((Date.now() - started) / 1000).toFixed(0)} s`)
process.exit(results.every((result) => result.ok) ? 0 : 1)
