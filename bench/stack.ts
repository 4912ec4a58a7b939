// The system under test: the demo broker with the bulk data set, the production build of the
// app on a fresh SQLite database, and the REST calls that seed an admin, the cities and layers.

import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, openSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { buildIsCurrent, standaloneIsComplete } from '../scripts/build'
import { migrate } from '../scripts/processes'
import { productionServer } from '../scripts/start'

import { assertPortFree, BenchError, processTree, sleep, tail } from './lib'

const bin = (name: string) => path.join('node_modules', '.bin', name)

// ---------------------------------------------------------------------------------------------
// Processes: each in its own process group, logging to a file; stopped by group id.

export interface Started {
  child: ChildProcess
  name: string
  log: string
}

const started = new Set<Started>()

export function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logDir: string): Started {
  const log = path.join(logDir, `${name}.log`)
  const fd = openSync(log, 'a')
  const child = spawn(command, args, { env, stdio: ['ignore', fd, fd], detached: true })
  const entry = { child, name, log }
  started.add(entry)
  child.on('exit', () => started.delete(entry))
  return entry
}

export const alive = ({ child }: Started) => child.exitCode === null && child.signalCode === null

export function runToEnd(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logDir: string): Promise<void> {
  const proc = start(name, command, args, env, logDir)
  return new Promise((resolve, reject) => {
    proc.child.on('error', reject)
    proc.child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new BenchError(`${name} (${command} ${args.join(' ')}) exited with ${code ?? signal}:\n${tail(proc.log)}`)),
    )
  })
}

/** Stops the process groups this module started (and only those). */
export async function stopAll() {
  const running = [...started]
  for (const { child } of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 5_000
  while (started.size > 0 && Date.now() < deadline) await sleep(50)
  for (const { child } of started) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}

/** Polls until `url` answers (any status below 500, or `accept`), while the process serving it lives. */
export async function waitForUrl(url: string, proc: Started, { timeoutMs = 120_000, accept = (status: number) => status < 500 } = {}) {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (!alive(proc)) throw new BenchError(`${proc.name} exited before ${url} answered:\n${tail(proc.log)}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      const text = await response.text()
      if (accept(response.status)) return
      last = `HTTP ${response.status} ${text.slice(0, 300)}`
    } catch (error) {
      last = (error as Error).message
    }
    await sleep(200)
  }
  throw new BenchError(`${url} did not answer within ${timeoutMs / 1000} s (last: ${last}):\n${tail(proc.log)}`)
}

// ---------------------------------------------------------------------------------------------
// Broker, build and app

export interface StackOptions {
  port: number
  brokerPort: number
  entities: number
  flavor: string
  redisUrl?: string
  /** REDIS_KEY_PREFIX of the app: the benchmark's entries stay apart from anyone else's (and are removed after). */
  redisKeyPrefix?: string
  /** Passed to the app when set (NGSI_LD_PAGE_SIZE / NGSI_LD_PAGE_CONCURRENCY). */
  pageSize?: number
  pageConcurrency?: number
  forceBuild: boolean
  workDir: string
  log: (message: string) => void
  /** More settings for the app (e.g. SMTP_URL). */
  env?: Record<string, string>
  /** Settings for the app server alone, not its migration or build (e.g. a NODE_OPTIONS --import that measures it). */
  serverEnv?: Record<string, string>
}

export interface Stack {
  baseUrl: string
  brokerUrl: string
  port: number
  workDir: string
  server: Started
  broker: Started
  env: NodeJS.ProcessEnv
  /** `env` and the server's own settings. */
  serverEnv: NodeJS.ProcessEnv
  /** Time of the build, when one ran. */
  buildSeconds?: number
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const { log, workDir } = options
  const baseUrl = `http://127.0.0.1:${options.port}`
  const brokerUrl = `http://127.0.0.1:${options.brokerPort}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: `file:${path.join(workDir, 'bench.db')}`,
    MEDIA_DIR: path.join(workDir, 'media'),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: baseUrl,
    PORT: String(options.port),
    NGSI_LD_BROKER_URL: brokerUrl,
    NGSI_LD_TENANT: '',
    ENABLE_AI: 'false',
    REDIS_URL: options.redisUrl ?? '',
    ...(options.redisKeyPrefix ? { REDIS_KEY_PREFIX: options.redisKeyPrefix } : {}),
    LOG_LEVEL: 'warn',
    NEXT_TELEMETRY_DISABLED: '1',
    ...options.env,
  }
  if (options.pageSize !== undefined) env.NGSI_LD_PAGE_SIZE = String(options.pageSize)
  if (options.pageConcurrency !== undefined) env.NGSI_LD_PAGE_CONCURRENCY = String(options.pageConcurrency)

  log('Migrating a fresh SQLite database')
  await migrate(env)

  log(`Starting the demo broker (${options.flavor}, ${options.entities} AirQualityObserved) on ${brokerUrl}`)
  const broker = startBroker(options.brokerPort, options.entities, options.flavor, env, workDir)

  let buildSeconds: number | undefined
  if (options.forceBuild || !standaloneIsComplete()) {
    log('Building the production bundle (npm run build)')
    const began = performance.now()
    await runToEnd('build', bin('tsx'), ['scripts/build.ts'], env, workDir)
    buildSeconds = (performance.now() - began) / 1000
  } else if (!(await buildIsCurrent())) {
    log('Warning: sources are newer than .next/BUILD_ID; figures are for the older build (BENCH_BUILD=true rebuilds)')
  }

  await waitForUrl(`${brokerUrl}/version`, broker, { timeoutMs: 60_000, accept: () => true })
  log(`Starting the app (standalone server.js) on ${baseUrl}${options.redisUrl ? ` with REDIS_URL=${options.redisUrl}` : ' with the in-process cache'}`)
  const serverEnv = { ...env, ...options.serverEnv }
  const server = await startServer(baseUrl, options.port, serverEnv, workDir)
  return { baseUrl, brokerUrl, server, broker, env, serverEnv, buildSeconds, port: options.port, workDir }
}

async function startServer(baseUrl: string, port: number, env: NodeJS.ProcessEnv, workDir: string): Promise<Started> {
  const command = productionServer(env, port)
  const server = start('server', command.command, command.args, command.env, workDir)
  // 200 only: the health check also proves the migrated database is usable.
  await waitForUrl(`${baseUrl}/api/health`, server, { timeoutMs: 120_000, accept: (status) => status === 200 })
  return server
}

function startBroker(port: number, entities: number, flavor: string, env: NodeJS.ProcessEnv, workDir: string): Started {
  return start('broker', bin('tsx'), ['demo/broker/cli.ts', '--port', String(port), '--entities', String(entities), '--flavor', flavor, '--temporal'], env, workDir)
}

/**
 * Runs `measure` against a small stack (100 AirQualityObserved, Orion-LD, live updates off, one
 * trusted proxy hop): its ports checked free first (named by the variables that set them), the
 * build made when BENCH_BUILD=true; everything stopped and its folder removed after, and a failure
 * printed (a BenchError as one line) with exit code 1.
 */
export async function benchOnSmallStack(
  options: {
    name: string
    port: [number, string]
    brokerPort: [number, string]
    env?: Record<string, string>
    serverEnv?: Record<string, string>
    log: (message: string) => void
  },
  measure: (stack: Stack) => Promise<void>,
): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), `citydash-bench-${options.name}-`))
  try {
    await assertPortFree(...options.port)
    await assertPortFree(...options.brokerPort)
    const stack = await startStack({
      port: options.port[0],
      brokerPort: options.brokerPort[0],
      entities: 100,
      flavor: 'orion-ld',
      forceBuild: process.env.BENCH_BUILD === 'true',
      workDir,
      log: options.log,
      env: { LIVE_UPDATES: 'false', TRUST_PROXY: '1', ...options.env },
      serverEnv: options.serverEnv,
    })
    await measure(stack)
  } catch (error) {
    console.error(error instanceof BenchError ? `✖ ${error.message}` : error)
    process.exitCode = 1
  } finally {
    await stopAll()
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** The demo broker again on the same port with another data set (the app keeps its URL). */
export async function restartBroker(stack: Stack, entities: number, flavor: string): Promise<void> {
  const { child } = stack.broker
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (child.pid) process.kill(-child.pid, 'SIGTERM')
  await exited
  stack.broker = startBroker(Number(new URL(stack.brokerUrl).port), entities, flavor, stack.env, stack.workDir)
  await waitForUrl(`${stack.brokerUrl}/version`, stack.broker, { timeoutMs: 300_000, accept: () => true })
}

/** The process that serves HTTP: Next's server names itself next-server. */
export function serverProcessOf(stack: Stack): { pid: number; command: string } {
  const tree = processTree(stack.server.child.pid ?? 0)
  const server = tree.find((proc) => proc.command.startsWith('next-server')) ?? tree.at(-1)
  if (!server) throw new BenchError('the server process is gone')
  return server
}

/** Stops the app server and starts a fresh one on the same database (empty in-process caches). */
export async function restartServer(stack: Stack): Promise<void> {
  const { child } = stack.server
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (child.pid) process.kill(-child.pid, 'SIGTERM')
  await exited
  stack.server = await startServer(stack.baseUrl, stack.port, stack.serverEnv, stack.workDir)
}

// ---------------------------------------------------------------------------------------------
// Seeding over REST, as an admin would

/** A JSON REST call to the app, as an admin's client makes it; a non-2xx answer throws. */
export async function call<T>(baseUrl: string, method: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  const text = await response.text()
  if (!response.ok) throw new BenchError(`${method} ${route}: HTTP ${response.status}: ${text.slice(0, 500)}`)
  return JSON.parse(text) as T
}

export interface Admin {
  token: string
}

/** The first account (it becomes admin), then the two demo cities in the site settings. */
export async function seedSite(baseUrl: string): Promise<Admin> {
  const { token } = await call<{ token: string }>(baseUrl, 'POST', '/api/users/first-register', {
    email: 'bench-admin@example.org',
    password: randomBytes(12).toString('hex'),
    name: 'Benchmark admin',
  })
  await call(baseUrl, 'POST', '/api/globals/site-settings', {
    title: 'Benchmark city',
    cities: [
      { name: 'Santander', tenant: 'santander', latitude: 43.462, longitude: -3.81, zoom: 13 },
      { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13 },
    ],
  }, token)
  return { token }
}

export interface LayerInput {
  name: string
  entityType: string
  attributes: string[]
  maxFeatures: number
  refreshSeconds?: number
}

export async function createLayer(baseUrl: string, admin: Admin, layer: LayerInput): Promise<string | number> {
  const { doc } = await call<{ doc: { id: string | number } }>(
    baseUrl,
    'POST',
    '/api/map-layers',
    { public: true, refreshSeconds: 60, ...layer },
    admin.token,
  )
  return doc.id
}
