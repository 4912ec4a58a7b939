// Shared helpers of the benchmarks: the benchmark module contract, metrics, HTTP timing,
// autocannon, process memory, machine load, timeouts and the build freshness rule.

import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon'
import type { Payload } from 'payload'

// ---------------------------------------------------------------------------------------------
// The contract every benchmark module follows

export interface Target {
  op: '<=' | '>='
  value: number
}

export interface Metric {
  /** Benchmark module name, filled in by the runner. */
  benchmark?: string
  name: string
  value: number
  unit: string
  target?: Target
  /** Extra detail printed under the table (how it was measured, raw figures). */
  note?: string
}

export interface BenchLayers {
  /** Three identical 50,000-feature layers: each is its own cache key, so each can be fetched cold once. */
  l50k: (string | number)[]
  /** 1,000 features: the 50,000-entity tenant capped by maxFeatures (meta.truncated = true). */
  l1k: string | number
}

export interface BenchContext {
  baseUrl: string
  brokerUrl: string
  /** Tenant holding the bulk AirQualityObserved set. */
  tenant: string
  /** Pid of the `next start` process (its process group is stopped at the end). */
  serverPid: number
  layers: BenchLayers
  /** Payload Local API on the server's database, for benchmarks that need content of their own. */
  payload: Payload
  /** Environment the server runs with. */
  env: NodeJS.ProcessEnv
  log: (message: string) => void
}

export interface BenchModule {
  /** Short name used by `--only` / `--skip`. */
  name: string
  description: string
  /** Upper bound of the whole module; it fails with a clear message beyond it. Default 5 min. */
  timeoutMs?: number
  run(ctx: BenchContext): Promise<Metric[]>
}

// ---------------------------------------------------------------------------------------------
// Small utilities

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals

export class BenchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'BenchError'
  }
}

/** Rejects with a named timeout when `work` takes longer than `ms`. */
export async function withTimeout<T>(label: string, ms: number, work: PromiseLike<T>, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.()
      reject(new BenchError(`${label}: timed out after ${round(ms / 1000)} s`))
    }, ms)
  })
  try {
    return await Promise.race([Promise.resolve(work), timeout])
  } finally {
    clearTimeout(timer)
  }
}

export const passes = (metric: Pick<Metric, 'value' | 'target'>): boolean | undefined =>
  metric.target === undefined || !Number.isFinite(metric.value)
    ? undefined
    : metric.target.op === '<='
      ? metric.value <= metric.target.value
      : metric.value >= metric.target.value

// ---------------------------------------------------------------------------------------------
// HTTP

export interface TimedResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** The body exactly as it came off the wire (still gzipped when Content-Encoding: gzip). */
  body: Buffer
  /** Request start to last body byte. */
  ms: number
  /** Request start to response headers. */
  headersMs: number
}

/** One GET with node:http (no automatic decompression), timed to the last byte. */
export function timedGet(url: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let headersMs = 0
    const request = http.get(url, { headers, agent: false, timeout: timeoutMs }, (response) => {
      headersMs = performance.now() - started
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms: performance.now() - started, headersMs }),
      )
    })
    request.on('timeout', () => request.destroy(new BenchError(`GET ${url}: no answer within ${timeoutMs / 1000} s`)))
    request.on('error', reject)
  })
}

/** Fails with the status and the start of the body when the answer is not the expected one. */
export function expectStatus(response: TimedResponse, expected: number, what: string) {
  if (response.status !== expected) {
    throw new BenchError(`${what}: expected HTTP ${expected}, got ${response.status}: ${response.body.subarray(0, 300).toString('utf8')}`)
  }
}

/** Polls until `url` answers 200; returns the time from `since` (performance.now()) to that answer. */
export async function waitFor200(url: string, { since = performance.now(), timeoutMs = 120_000, intervalMs = 50, alive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (!alive()) throw new BenchError(`${url}: the process serving it exited (last: ${last})`)
    try {
      const response = await timedGet(url, {}, 5_000)
      if (response.status === 200) return performance.now() - since
      last = `HTTP ${response.status}`
    } catch (error) {
      last = (error as Error).message
    }
    await sleep(intervalMs)
  }
  throw new BenchError(`${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`)
}

export function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', () => reject(new BenchError(`Port ${port} is in use; set another with the BENCH_PORT / BENCH_BROKER_PORT environment variables`)))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

// ---------------------------------------------------------------------------------------------
// Load generation

export interface LoadSummary {
  requestsPerSecond: number
  totalRequests: number
  durationSeconds: number
  latencyP50: number
  latencyP99: number
  latencyMax: number
  statusCodes: Record<string, number>
  errors: number
  timeouts: number
  non2xx: number
  bytesPerSecond: number
}

export async function load(options: AutocannonOptions): Promise<{ summary: LoadSummary; raw: AutocannonResult }> {
  const expected = (options.duration ?? 10) * 1000 + 60_000
  const instance = autocannon({ timeout: 30, ...options })
  const raw = await withTimeout(`autocannon ${options.url}`, options.amount ? 10 * 60_000 : expected, instance, () => instance.stop())
  const statusCodes = Object.fromEntries(Object.entries(raw.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]))
  const totalRequests = Object.values(statusCodes).reduce((sum, count) => sum + count, 0)
  const durationSeconds = (raw.finish.getTime() - raw.start.getTime()) / 1000
  return {
    raw,
    summary: {
      // Completed requests over the measured wall time (autocannon's own average is per-second samples).
      requestsPerSecond: totalRequests / durationSeconds,
      totalRequests,
      durationSeconds,
      latencyP50: raw.latency.p50,
      latencyP99: raw.latency.p99,
      latencyMax: raw.latency.max,
      statusCodes,
      errors: raw.errors,
      timeouts: raw.timeouts,
      non2xx: raw.non2xx,
      bytesPerSecond: raw.throughput.average,
    },
  }
}

export const describeLoad = (s: LoadSummary) =>
  `${s.totalRequests} requests in ${round(s.durationSeconds)} s, status ${JSON.stringify(s.statusCodes)}, errors ${s.errors}, timeouts ${s.timeouts}, ` +
  `latency p50 ${s.latencyP50} ms p99 ${s.latencyP99} ms max ${s.latencyMax} ms, ${round(s.bytesPerSecond / 1e6)} MB/s`

// ---------------------------------------------------------------------------------------------
// Processes and the machine

/** VmRSS and VmHWM (peak) of one process in MB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 }
}

/** The process and all its descendants, with command names (next start may fork workers). */
export function processTree(rootPid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number[]>()
  const names = new Map<number, string>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const ppid = Number(stat.slice(close + 2).split(' ')[1])
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close))
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
    } catch {
      // gone meanwhile
    }
  }
  const tree: { pid: number; command: string }[] = []
  const visit = (pid: number) => {
    tree.push({ pid, command: names.get(pid) ?? '?' })
    for (const child of parents.get(pid) ?? []) visit(child)
  }
  visit(rootPid)
  return tree
}

/** Resident memory of the server: the process tree summed (and listed, so a forked next-server shows). */
export function serverMemory(pid: number) {
  const tree = processTree(pid).map((proc) => {
    try {
      return { ...proc, ...memoryOf(proc.pid) }
    } catch {
      return { ...proc, rssMB: 0, peakMB: 0 }
    }
  })
  return {
    rssMB: tree.reduce((sum, proc) => sum + proc.rssMB, 0),
    peakMB: tree.reduce((sum, proc) => sum + proc.peakMB, 0),
    tree: tree.map((proc) => `${proc.pid} ${proc.command} ${round(proc.rssMB)} MB`).join(', '),
  }
}

export function machineLoad() {
  const [one, five, fifteen] = os.loadavg()
  return { cores: os.cpus().length, loadAvg: [round(one, 2), round(five, 2), round(fifteen, 2)], freeMemMB: Math.round(os.freemem() / 2 ** 20) }
}

/** The busiest processes right now (to explain noisy figures), excluding nothing: read-only. */
export function busiestProcesses(count = 6): string[] {
  try {
    const out = execFileSync('ps', ['-eo', 'pid,pcpu,rss,args', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' })
    return out
      .split('\n')
      .filter(Boolean)
      .slice(0, count)
      .map((line) => {
        const [pid, cpu, rss, ...args] = line.trim().split(/\s+/)
        return `${pid} ${cpu}% ${Math.round(Number(rss) / 1024)}MB ${args.join(' ').slice(0, 90)}`
      })
  } catch {
    return []
  }
}

// ---------------------------------------------------------------------------------------------
// The build freshness rule of scripts/demo.ts (not exported there, so copied)

async function newestSourceChange(): Promise<number> {
  let newest = 0
  const roots = ['src', 'payload.config.ts', 'next.config.mjs', 'package-lock.json', 'public']
  for (const root of roots.filter((entry) => existsSync(entry))) {
    const entries = statSync(root).isDirectory() ? await readdir(root, { recursive: true }) : ['']
    for (const entry of entries) {
      try {
        newest = Math.max(newest, statSync(path.join(root, entry)).mtimeMs)
      } catch {
        // removed while we looked (others edit concurrently)
      }
    }
  }
  return newest
}

export async function buildIsCurrent(): Promise<boolean> {
  const marker = path.join('.next', 'BUILD_ID')
  return existsSync(marker) && statSync(marker).mtimeMs > (await newestSourceChange())
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}
