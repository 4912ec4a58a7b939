/**
 * `npm run bench:compare -- <before checkout> [<after checkout>]`: what a change costs in warm
 * throughput, on the production builds of two checkouts of this project side by side (the after
 * checkout defaults to this one). Each checkout runs its own demo broker, migrations, fresh SQLite
 * database and standalone server, seeded alike over REST:
 *
 *   - warm layer data: a 1,000-feature layer, GET /api/layers/{id}/features with gzip (as step 2 of
 *     bench/run.ts);
 *   - page throughput: a published page with a MapView of three 1,000-feature layers (as
 *     bench/dashboard.ts).
 *
 * A shared machine's load drifts, so the sides take turns: every round measures both, in the
 * opposite order to the round before. Prints per-round figures and, per side, median throughput,
 * p99 and server CPU time per request (the figure least moved by other work on the machine), with
 * after ÷ before of each (throughput also as the median of each round's own ratio); writes
 * bench/results/compare.json.
 *
 * Each checkout needs its dependencies and a production build (`npm ci && npm run build` in it).
 * Environment: COMPARE_ROUNDS (5, at least 3), BENCH_DURATION (10 s), BENCH_CONNECTIONS (50).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'

import { freePort } from '../scripts/processes'

import { BenchError, cpuTimeMs, describeLoadAvg, expectOnly, expectStatus, load, median, round, timedGet } from './lib'
import { type Admin, createLayer, seedSite, serverProcessOf, startStack, stopAll } from './stack'

const SERVE = '--serve'
const READY = 'compare-ready '
const GZIP = { 'accept-encoding': 'gzip, deflate, br' }

function integer(name: string, fallback: number, min: number): number {
  const raw = process.env[name]
  if (!raw) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new BenchError(`${name} must be an integer ≥ ${min}, got '${raw}'`)
  return Number(raw)
}

const settings = {
  rounds: integer('COMPARE_ROUNDS', 5, 3),
  duration: integer('BENCH_DURATION', 10, 1),
  connections: integer('BENCH_CONNECTIONS', 50, 1),
}

const log = (message: string) => console.error(`[compare ${new Date().toISOString().slice(11, 19)}] ${message}`)

/** What a seeded side answers on: the URLs under test, and the process serving them. */
type Targets = { layer: string; page: string; serverPid: number }

// ---------------------------------------------------------------------------------------------
// One side: this file run with the checkout as working directory, so the broker, migrations and
// server are the checkout's own while the harness is this one.

async function publishMapPage(baseUrl: string, admin: Admin, slug: string, layers: (string | number)[]) {
  const response = await fetch(`${baseUrl}/api/pages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `JWT ${admin.token}` },
    body: JSON.stringify({
      title: slug,
      slug,
      _status: 'published',
      layout: [{ blockType: 'mapView', title: 'Map', layers, height: 'medium', legend: true }],
    }),
  })
  if (!response.ok) throw new BenchError(`POST /api/pages: HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`)
}

async function serve() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-compare-'))
  const stack = await startStack({
    port: await freePort(),
    brokerPort: await freePort(),
    entities: 5_000,
    flavor: 'orion-ld',
    forceBuild: false,
    workDir,
    log,
  })
  const admin = await seedSite(stack.baseUrl)
  const layer = (name: string, entityType: string, attributes: string[]) => createLayer(stack.baseUrl, admin, { name, entityType, attributes, maxFeatures: 1_000 })
  const air = await layer('Air quality', 'AirQualityObserved', ['no2', 'pm10', 'name'])
  const weather = await layer('Weather', 'WeatherObserved', ['name', 'temperature'])
  const devices = await layer('Devices', 'Device', ['name', 'batteryLevel'])
  await publishMapPage(stack.baseUrl, admin, 'compare-dashboard', [air, weather, devices])
  const targets: Targets = {
    layer: `${stack.baseUrl}/api/layers/${air}/features?city=santander`,
    page: `${stack.baseUrl}/compare-dashboard`,
    serverPid: serverProcessOf(stack).pid,
  }
  // Loaded and rendered once, then served warm like the rest of the run.
  for (const url of [targets.layer, targets.page]) expectStatus(await timedGet(url, GZIP), 200, url)
  process.stdout.write(`${READY}${JSON.stringify(targets)}\n`)
  const stop = () => void stopAll().finally(() => {
    rmSync(workDir, { recursive: true, force: true })
    process.exit(0)
  })
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

type Side = { name: 'before' | 'after'; dir: string; targets: Targets; stop: () => void }

/** Starts this file as one side in `dir` and waits until it is seeded and warm. */
function startSide(name: Side['name'], dir: string): Promise<Side> {
  const tsx = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx')
  const child = spawn(tsx, [import.meta.filename, SERVE], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'], detached: true })
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new BenchError(`the ${name} side (${dir}) exited with ${code} before it was ready`)))
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith(READY)) resolve({ name, dir, targets: JSON.parse(line.slice(READY.length)) as Targets, stop })
    })
  }).catch((error: unknown) => {
    stop()
    throw error
  }) as Promise<Side>
}

// ---------------------------------------------------------------------------------------------
// The comparison

const MEASURES = [
  { key: 'layer', name: 'warm 1,000-feature layer data' },
  { key: 'page', name: 'dashboard page (MapView of 3 layers)' },
] as const

/** Throughput and latency depend on what else the machine runs; the server's CPU time per request much less. */
type Figure = { rps: number; p99: number; cpuMs: number }

async function measure(url: string, serverPid: number, what: string): Promise<Figure> {
  const cpuBefore = cpuTimeMs(serverPid)
  const summary = await load({ url, connections: settings.connections, duration: settings.duration, headers: GZIP })
  const cpuMs = (cpuTimeMs(serverPid) - cpuBefore) / summary.totalRequests
  expectOnly(summary, 200, what)
  return { rps: summary.requestsPerSecond, p99: summary.latencyP99, cpuMs }
}

async function compare(beforeDir: string, afterDir: string) {
  for (const dir of [beforeDir, afterDir]) {
    if (!existsSync(path.join(dir, '.next', 'standalone', 'server.js'))) throw new BenchError(`${dir} has no production build: run npm ci && npm run build in it`)
  }
  const sides: Side[] = []
  try {
    sides.push(await startSide('before', beforeDir))
    sides.push(await startSide('after', afterDir))
    // Untimed: both servers' routes compiled and their connections opened.
    for (const side of sides) for (const { key } of MEASURES) await load({ url: side.targets[key], connections: settings.connections, duration: 2, headers: GZIP })

    const figures = new Map<string, Figure[]>()
    for (let turn = 0; turn < settings.rounds; turn++) {
      const order = turn % 2 === 0 ? sides : [...sides].reverse()
      for (const side of order) {
        for (const { key, name } of MEASURES) {
          const figure = await measure(side.targets[key], side.targets.serverPid, `${side.name}: ${name}`)
          figures.set(`${side.name} ${key}`, [...(figures.get(`${side.name} ${key}`) ?? []), figure])
          log(`round ${turn + 1}/${settings.rounds} ${side.name.padEnd(6)} ${name}: ${Math.round(figure.rps)} req/s, p99 ${figure.p99} ms, server CPU ${round(figure.cpuMs, 3)} ms/request (load ${describeLoadAvg()})`)
        }
      }
    }

    const summary = (series: Figure[]) => ({
      rps: Math.round(median(series.map((figure) => figure.rps))),
      p99: median(series.map((figure) => figure.p99)),
      cpuMs: round(median(series.map((figure) => figure.cpuMs)), 3),
      rounds: series.map((figure) => Math.round(figure.rps)),
    })
    const rows = MEASURES.map(({ key, name }) => {
      const [before, after] = (['before', 'after'] as const).map((side) => figures.get(`${side} ${key}`) ?? []) as [Figure[], Figure[]]
      const [b, a] = [summary(before), summary(after)]
      return {
        name,
        before: b,
        after: a,
        ratio: round(a.rps / b.rps, 3),
        // Each round's sides ran back to back under nearly the same load.
        pairedRatio: round(median(after.map((figure, index) => figure.rps / (before[index]?.rps ?? Number.NaN))), 3),
        cpuRatio: round(a.cpuMs / b.cpuMs, 3),
      }
    })
    console.log(`\nbefore: ${beforeDir}\nafter:  ${afterDir}\n${settings.rounds} rounds × ${settings.duration} s at ${settings.connections} connections, sides alternating\n`)
    for (const row of rows) {
      console.log(row.name)
      for (const side of ['before', 'after'] as const) {
        const figure = row[side]
        console.log(`  ${side.padEnd(6)}  median ${figure.rps} req/s, p99 ${figure.p99} ms, server CPU ${figure.cpuMs} ms/request; rounds ${figure.rounds.join(', ')} req/s`)
      }
      console.log(`  after ÷ before: throughput ${row.ratio} (medians), ${row.pairedRatio} (median of the rounds' own ratios); server CPU per request ${row.cpuRatio}`)
    }
    const dir = path.join('bench', 'results')
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, 'compare.json'), `${JSON.stringify({ finishedAt: new Date().toISOString(), before: beforeDir, after: afterDir, settings, rows }, null, 2)}\n`)
  } finally {
    for (const side of sides) side.stop()
  }
}

if (process.argv[2] === SERVE) {
  await serve()
} else {
  const [before, after = '.'] = process.argv.slice(2)
  if (!before) {
    console.error('usage: npm run bench:compare -- <before checkout> [<after checkout>]')
    process.exit(2)
  }
  await compare(path.resolve(before), path.resolve(after)).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`\n✖ Comparison failed: ${error instanceof Error ? error.message : String(error)}`)
      process.exit(1)
    },
  )
}
