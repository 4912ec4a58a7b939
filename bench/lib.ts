// Shared helpers of the data-path benchmarks: statistics, timed HTTP, autocannon, process
// memory and machine load. No app imports: this file only measures.

import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'

import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon'

// ---------------------------------------------------------------------------------------------
// Metrics

export interface Target {
  op: '<=' | '>='
  value: number
}

export interface Metric {
  name: string
  value: number
  unit: string
  target?: Target
  /** How it was measured and the raw figures, printed under the table. */
  note?: string
}

export const passes = (metric: Pick<Metric, 'value' | 'target'>): boolean | undefined =>
  metric.target === undefined || !Number.isFinite(metric.value)
    ? undefined
    : metric.target.op === '<='
      ? metric.value <= metric.target.value
      : metric.value >= metric.target.value

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * A new client address on every call (10.x.y.z, valid however many are asked), for a server with
 * TRUST_PROXY=1 to read from X-Forwarded-For: per-client budgets then never refuse a benchmark.
 */
export function clientAddresses(): () => string {
  let count = 0
  return () => {
    count++
    return `10.${Math.floor(count / 62_500) % 250}.${Math.floor(count / 250) % 250}.${(count % 250) + 1}`
  }
}

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

// ---------------------------------------------------------------------------------------------
// HTTP

export interface TimedResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** The body as it came off the wire (still gzipped when Content-Encoding: gzip). */
  body: Buffer
  /** Request start to last body byte, in ms. */
  ms: number
}

/** One GET on a fresh connection with node:http (no automatic decompression), timed to the last byte. */
export function timedGet(url: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const request = http.get(url, { headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms: performance.now() - started }),
      )
    })
    request.on('timeout', () => request.destroy(new BenchError(`GET ${url}: no answer within ${timeoutMs / 1000} s`)))
    request.on('error', reject)
  })
}

/** Fails with the status and the start of the body when the answer is not the expected one. */
export function expectStatus(response: Pick<TimedResponse, 'status' | 'body'>, expected: number, what: string) {
  if (response.status !== expected) {
    throw new BenchError(`${what}: expected HTTP ${expected}, got ${response.status}: ${response.body.subarray(0, 300).toString('utf8')}`)
  }
}

export function assertPortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', () => reject(new BenchError(`Port ${port} is in use; choose another with ${variable}`)))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

// ---------------------------------------------------------------------------------------------
// Load generation (autocannon, in this process)

export interface LoadSummary {
  /** Completed requests over the measured wall time. */
  requestsPerSecond: number
  totalRequests: number
  durationSeconds: number
  latencyP50: number
  latencyP99: number
  latencyMax: number
  statusCodes: Record<string, number>
  errors: number
  timeouts: number
  bytesPerSecond: number
}

export async function load(options: AutocannonOptions): Promise<LoadSummary> {
  const budgetMs = options.amount ? 10 * 60_000 : (options.duration ?? 10) * 1000 + 60_000
  const instance = autocannon({ timeout: 30, ...options })
  const raw: AutocannonResult = await withTimeout(`autocannon ${options.url}`, budgetMs, instance, () => instance.stop())
  const statusCodes = Object.fromEntries(Object.entries(raw.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]))
  const totalRequests = Object.values(statusCodes).reduce((sum, count) => sum + count, 0)
  const durationSeconds = (raw.finish.getTime() - raw.start.getTime()) / 1000
  return {
    requestsPerSecond: totalRequests / durationSeconds,
    totalRequests,
    durationSeconds,
    latencyP50: raw.latency.p50,
    latencyP99: raw.latency.p99,
    latencyMax: raw.latency.max,
    statusCodes,
    errors: raw.errors,
    timeouts: raw.timeouts,
    bytesPerSecond: raw.throughput.average,
  }
}

export const describeLoad = (s: LoadSummary) =>
  `${s.totalRequests} requests in ${round(s.durationSeconds)} s, status ${JSON.stringify(s.statusCodes)}, errors ${s.errors}, timeouts ${s.timeouts}, ` +
  `latency p50 ${s.latencyP50} ms p99 ${s.latencyP99} ms max ${s.latencyMax} ms, ${round(s.bytesPerSecond / 1e6)} MB/s`

/** Only `status` answered, and no socket errors or timeouts. */
export function expectOnly(summary: LoadSummary, status: number, what: string) {
  const others = Object.entries(summary.statusCodes).filter(([code]) => Number(code) !== status)
  if (others.length > 0 || summary.errors > 0 || summary.timeouts > 0 || summary.totalRequests === 0) {
    throw new BenchError(`${what}: expected only HTTP ${status}; ${describeLoad(summary)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// Processes and the machine

/** VmRSS and VmHWM (peak) of one process in MB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // Fields 14 and 15 of stat (utime, stime), counted after the command name, in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100

export interface ProcessInfo {
  pid: number
  /** The kernel's command name (what process.title sets, truncated to 15 characters). */
  command: string
}

/** The process and all its descendants, parents first. */
export function processTree(rootPid: number): ProcessInfo[] {
  const children = new Map<number, number[]>()
  const names = new Map<number, string>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const ppid = Number(stat.slice(close + 2).split(' ')[1])
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close))
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // exited meanwhile
    }
  }
  const tree: ProcessInfo[] = []
  const visit = (pid: number) => {
    if (!names.has(pid)) return
    tree.push({ pid, command: names.get(pid) ?? '?' })
    for (const child of children.get(pid) ?? []) visit(child)
  }
  visit(rootPid)
  return tree
}

export function machineLoad() {
  const [one, five, fifteen] = os.loadavg()
  return { cores: os.cpus().length, loadAvg: [round(one, 2), round(five, 2), round(fifteen, 2)], freeMemMB: Math.round(os.freemem() / 2 ** 20) }
}

export const describeLoadAvg = () => machineLoad().loadAvg.join(' / ')

/** The busiest processes right now, to explain noisy figures (read-only). */
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

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}
