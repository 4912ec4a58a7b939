/**
 * `npm run test:quick`: the check before a commit, in minutes: lint of the changed files, the
 * typecheck (incremental: the files a change reaches), the unit project, and the SQLite integration
 * files that import a changed module. What changed is the working tree against HEAD (untracked
 * files included); with nothing uncommitted, the last commit. `npm test` stays the whole suite.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean)

function changedFiles(): string[] {
  const uncommitted = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')]
  const files = uncommitted.length > 0 ? uncommitted : git('diff', '--name-only', 'HEAD~1', 'HEAD')
  // Deleted files have nothing left to check.
  return [...new Set(files)].filter((file) => existsSync(file))
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
const checks = [
  ...(code.length > 0 ? [run('lint (changed files)', bin('eslint'), ['--no-warn-ignored', ...code])] : []),
  run('typecheck (incremental)', bin('tsc'), ['--noEmit']),
  run('unit', bin('vitest'), ['run', '--project', 'unit']),
]
const results = await Promise.all(checks)
// The integration files whose imports reach a changed module (vitest follows the import graph).
const source = code.filter((file) => file.startsWith('src/') || file.startsWith('tests/') || file === 'payload.config.ts')
if (source.length > 0) results.push(await run('int (files importing a change)', bin('vitest'), ['related', '--run', '--project', 'int', '--passWithNoTests', ...source]))

console.log('\nstep                              took    result')
for (const { label, ok, ms } of results) console.log(`${label.padEnd(32)}  ${`${(ms / 1000).toFixed(0)} s`.padStart(5)}   ${ok ? 'passed' : 'FAILED'}`)
console.log(`whole check: ${((Date.now() - started) / 1000).toFixed(0)} s`)
process.exit(results.every((result) => result.ok) ? 0 : 1)
