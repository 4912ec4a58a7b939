/**
 * `npm test`: the whole suite, as CI runs it. The steps run in two lanes side by side (the machine
 * has two cores, and much of the end-to-end and security time is spent waiting on servers, mail
 * and browsers); each lane runs its steps one after another. One production build serves every
 * later step. At the end: each step's wall time, the ten slowest test files, the case counts, each failed case and each case that passed only on a retry.
 *
 * `npm test -- --only e2e,security` runs those steps (and the build they need) alone.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'

import { type FileTiming, TIMINGS_DIR } from '../tests/timing-reporter'

import { LANES, type Step } from './testSteps'

type Outcome = { step: Step; lane: number; startedMs: number; wallMs: number; status: 'passed' | 'failed' | 'skipped' }

const runStart = Date.now()
const outcomes = new Map<string, Outcome>()
const running = new Set<ChildProcess>()

function onlySteps(): Set<string> | undefined {
  const index = process.argv.indexOf('--only')
  if (index === -1) return undefined
  const names = new Set((process.argv[index + 1] ?? '').split(',').filter(Boolean))
  const known = LANES.flat().map((step) => step.name)
  const unknown = [...names].filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`--only: no step ${unknown.join(', ')} (steps: ${known.join(', ')})`)
  // A chosen step brings the steps it needs.
  for (const step of LANES.flat()) if (names.has(step.name)) for (const need of step.needs ?? []) names.add(need)
  return names
}

/** Runs one step's command in its own process group, each line of its output prefixed with the step's name. */
function run(step: Step): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', step.command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, FORCE_COLOR: '0' } })
    running.add(child)
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${step.name}] ${line}\n`))
    }
    child.on('exit', (code) => {
      running.delete(child)
      resolve(code === 0)
    })
  })
}

/** Each step's outcome once it is known, so a step in one lane can wait for its need in the other. */
const settled = new Map<string, { promise: Promise<Outcome>; resolve: (outcome: Outcome) => void }>()
for (const step of LANES.flat()) {
  let resolve!: (outcome: Outcome) => void
  settled.set(step.name, { promise: new Promise((done) => (resolve = done)), resolve })
}

async function runLane(steps: Step[], lane: number, chosen: Set<string> | undefined) {
  for (const step of steps) {
    if (chosen && !chosen.has(step.name)) continue
    const needs = await Promise.all((step.needs ?? []).map((need) => settled.get(need)!.promise))
    const startedMs = Date.now() - runStart
    let status: Outcome['status'] = 'skipped'
    if (needs.every((need) => need.status === 'passed')) {
      process.stdout.write(`▶ ${step.name}: ${step.command}\n`)
      status = (await run(step)) ? 'passed' : 'failed'
    }
    const outcome: Outcome = { step, lane, startedMs, wallMs: Date.now() - runStart - startedMs, status }
    outcomes.set(step.name, outcome)
    settled.get(step.name)!.resolve(outcome)
    if (status !== 'skipped') process.stdout.write(`${status === 'passed' ? '✓' : '✗'} ${step.name} ${status === 'passed' ? 'passed' : 'FAILED'} in ${seconds(outcome.wallMs)}\n`)
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`
const minutes = (ms: number) => {
  const total = Math.round(ms / 1000)
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`
}

function readTimings(): FileTiming[] {
  if (!existsSync(TIMINGS_DIR)) return []
  return readdirSync(TIMINGS_DIR)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => JSON.parse(readFileSync(path.join(TIMINGS_DIR, file), 'utf8')) as FileTiming[])
}

function report() {
  const lines = ['', 'Steps (wall time; the two lanes run side by side)', 'lane  step               starts at  took     result']
  for (const { step, lane, startedMs, wallMs, status } of [...outcomes.values()].sort((a, b) => a.startedMs - b.startedMs)) {
    lines.push(`${String(lane + 1).padEnd(4)}  ${step.name.padEnd(17)}  ${minutes(startedMs).padStart(9)}  ${minutes(wallMs).padStart(7)}  ${status}`)
  }
  lines.push(`whole run: ${minutes(Date.now() - runStart)}`)

  const timings = readTimings()
  lines.push('', 'Ten slowest test files', 'took     project       file')
  for (const row of [...timings].sort((a, b) => b.durationMs - a.durationMs).slice(0, 10)) {
    lines.push(`${minutes(row.durationMs).padStart(7)}  ${row.project.padEnd(12)}  ${row.file}`)
  }
  const byProject = new Map<string, { files: number; passed: number; failed: number; skipped: number }>()
  for (const row of timings) {
    const counts = byProject.get(row.project) ?? { files: 0, passed: 0, failed: 0, skipped: 0 }
    byProject.set(row.project, { files: counts.files + 1, passed: counts.passed + row.passed, failed: counts.failed + row.failed, skipped: counts.skipped + row.skipped })
  }
  lines.push('', 'Cases per project', 'project       files  passed  failed  skipped')
  for (const [project, counts] of [...byProject].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${project.padEnd(12)}  ${String(counts.files).padStart(5)}  ${String(counts.passed).padStart(6)}  ${String(counts.failed).padStart(6)}  ${String(counts.skipped).padStart(7)}`)
  }
  const total = [...byProject.values()].reduce((sum, counts) => ({ passed: sum.passed + counts.passed, failed: sum.failed + counts.failed, skipped: sum.skipped + counts.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  })
  // A step that failed with no failed case to show for it (lint, the build, a project's setup) counts as one failure.
  const failedSteps = [...outcomes.values()].filter(({ step, status }) => status === 'failed' && !(step.project && byProject.get(step.project)?.failed)).length
  const failures = timings.filter((row) => row.failures)
  if (failures.length > 0) {
    lines.push('', 'Failed cases')
    for (const row of failures) for (const failure of row.failures!) lines.push(`${row.project.padEnd(12)}  ${row.file} › ${failure}`)
  }
  const retried = timings.filter((row) => row.retried)
  if (retried.length > 0) {
    lines.push('', 'Passed on a retry (flaky: look into them)')
    for (const row of retried) for (const name of row.retried!) lines.push(`${row.project.padEnd(12)}  ${row.file} › ${name}`)
  }
  lines.push('', `tests: ${total.passed} passed, ${total.failed + failedSteps} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`, '')
  process.stdout.write(lines.join('\n'))
}

function stopEverything() {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
process.on('SIGINT', () => (stopEverything(), process.exit(130)))
process.on('SIGTERM', () => (stopEverything(), process.exit(143)))

const chosen = onlySteps()
rmSync(TIMINGS_DIR, { recursive: true, force: true })
await Promise.all(LANES.map((steps, lane) => runLane(steps, lane, chosen)))
report()
const failed = [...outcomes.values()].filter((outcome) => outcome.status !== 'passed')
if (failed.length > 0) {
  process.stdout.write(`Not passed: ${failed.map((outcome) => `${outcome.step.name} (${outcome.status})`).join(', ')}\n`)
  process.exit(1)
}
