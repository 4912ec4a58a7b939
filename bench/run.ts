/**
 * `npm run bench`: the data-path benchmarks of issue 3 against the demo broker with 50,000
 * AirQualityObserved entities and the production build of the app (built when .next/BUILD_ID is
 * missing or BENCH_BUILD=true).
 *
 *   1. cold GET /api/layers/{id}/features of the 50,000 layer (3 attributes; a new layer document per
 *      run, so nothing is cached) ÷ the floor: the same broker pages fetched by a plain sequential
 *      loop; gzip size and bytes per feature. Then the same with a delay on every broker response,
 *      as for a broker on another host;
 *   2. a warm 1,000-feature layer under autocannon (50 connections, Accept-Encoding gzip as browsers send);
 *   2b. the warm history route of that layer (a day of no2 and pm10, averaged per hour) under autocannon;
 *   3. If-None-Match on the 50,000 layer: 304s per second (every answer must be a 304);
 *   4. idle RSS of freshly started servers (at ready and after BENCH_IDLE_SECONDS), then RSS of a
 *      freshly started server after 1,000 requests of the 50,000 layer;
 *   5. peak RSS of a freshly started server through one cold load of a 500,000-entity layer (the
 *      broker restarted with that many);
 *   6. vector tiles of that layer: the first request (it builds the tile index) and the longest a
 *      health request waited meanwhile; then one warm city-zoom tile under autocannon at 50
 *      connections, and the peak RSS with the index built.
 *
 * Environment: BENCH_REDIS=true (cache in Redis at BENCH_REDIS_URL, default redis://127.0.0.1:6379,
 * under a key prefix of its own, removed at the end), BENCH_BUILD=true, BENCH_PORT (3471),
 * BENCH_BROKER_PORT (1471), BENCH_ENTITIES (50000), BENCH_FLAVOR (orion-ld), BENCH_COLD_RUNS (5),
 * BENCH_REMOTE_LATENCY_MS (20; 0 skips that series), BENCH_DURATION (10 s), BENCH_CONNECTIONS (50),
 * BENCH_RSS_REQUESTS (1000), BENCH_IDLE_STARTS (3), BENCH_IDLE_SECONDS (30), BENCH_HUGE_ENTITIES (500000; 0 skips that step), NGSI_LD_PAGE_SIZE / NGSI_LD_PAGE_CONCURRENCY (passed to the app; the
 * floor uses the same page size).
 * Prints a table and writes bench/results/latest.json and bench/results/latest-<memory|redis>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'

import { Redis } from 'ioredis'

import { DEFAULT_CONTEXT_URL, entityQueryParams, queryString, requestHeaders, type HttpConfig, undiciTransport } from '../src/ngsi'

import {
  assertPortFree,
  BenchError,
  busiestProcesses,
  cpuTimeMs,
  describeLoad,
  describeLoadAvg,
  expectOnly,
  expectStatus,
  load,
  machineLoad,
  median,
  memoryOf,
  type Metric,
  passes,
  processTree,
  round,
  sleep,
  timedGet,
  withTimeout,
} from './lib'
import { alive, createLayer, restartBroker, restartServer, seedSite, serverProcessOf, startStack, stopAll, type Admin, type LayerInput, type Stack } from './stack'

// ---------------------------------------------------------------------------------------------
// Settings

function integer(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new BenchError(`${name} must be an integer ≥ ${min}, got '${raw}'`)
  return Number(raw)
}

const optionalInteger = (name: string) => (process.env[name] ? integer(name, 0) : undefined)

const settings = {
  useRedis: process.env.BENCH_REDIS === 'true',
  redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  forceBuild: process.env.BENCH_BUILD === 'true',
  port: integer('BENCH_PORT', 3471),
  brokerPort: integer('BENCH_BROKER_PORT', 1471),
  entities: integer('BENCH_ENTITIES', 50_000, 1001),
  flavor: process.env.BENCH_FLAVOR || 'orion-ld',
  coldRuns: integer('BENCH_COLD_RUNS', 5, 3),
  duration: integer('BENCH_DURATION', 10),
  connections: integer('BENCH_CONNECTIONS', 50),
  rssRequests: integer('BENCH_RSS_REQUESTS', 1_000),
  remoteLatencyMs: integer('BENCH_REMOTE_LATENCY_MS', 20, 0),
  hugeEntities: integer('BENCH_HUGE_ENTITIES', 500_000, 0),
  idleStarts: integer('BENCH_IDLE_STARTS', 3),
  idleSeconds: integer('BENCH_IDLE_SECONDS', 30),
  pageSize: optionalInteger('NGSI_LD_PAGE_SIZE'),
  pageConcurrency: optionalInteger('NGSI_LD_PAGE_CONCURRENCY'),
}

/** The tenant (first demo city) that holds the bulk AirQualityObserved set. */
const TENANT = 'santander'
const ENTITY_TYPE = 'AirQualityObserved'
const ATTRIBUTES = ['no2', 'pm10', 'name']
/** Browsers always offer gzip; autocannon sends nothing unless told. */
const GZIP = { 'accept-encoding': 'gzip, deflate, br' }

const bigLayer = (name: string): LayerInput => ({ name, entityType: ENTITY_TYPE, attributes: ATTRIBUTES, maxFeatures: settings.entities })

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`)

/** The app's Redis keys during this run (cache entries, locks, rate limits); deleted at the end. */
const REDIS_KEY_PREFIX = `citydash-bench-${process.pid}:`

/** Removes what this run stored in Redis (only keys under its own prefix). */
async function removeRedisKeys() {
  const redis = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    let removed = 0
    for await (const keys of redis.scanStream({ match: `${REDIS_KEY_PREFIX}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) removed += await redis.del(...keys)
    }
    log(`Removed ${removed} Redis keys under ${REDIS_KEY_PREFIX}`)
  } catch (error) {
    log(`Could not remove the Redis keys under ${REDIS_KEY_PREFIX}: ${(error as Error).message}`)
  } finally {
    redis.disconnect()
  }
}

// ---------------------------------------------------------------------------------------------
// The floor: the pages the app requests, fetched one after another

/** Same URLs, headers and transport as the app's client (its own query builder), fetched sequentially. */
async function floorFetch(brokerUrl: string, pageSize: number): Promise<{ ms: number; pages: number; entities: number; bytes: number }> {
  const params = entityQueryParams({ type: ENTITY_TYPE, attrs: [...new Set([...ATTRIBUTES, 'location'])] })
  const config: HttpConfig = { transport: undiciTransport, contextUrl: DEFAULT_CONTEXT_URL, timeoutMs: 60_000, retries: 0 }
  const headers = requestHeaders(config, { tenant: TENANT })
  const endpoint = `${brokerUrl}/ngsi-ld/v1/entities`
  const started = performance.now()
  let total = Number.POSITIVE_INFINITY
  let offset = 0
  let pages = 0
  let bytes = 0
  while (offset < Math.min(total, settings.entities)) {
    const limit = Math.min(pageSize, settings.entities - offset)
    const url = endpoint + queryString({ ...params, limit, offset: offset || undefined, count: offset === 0 ? 'true' : undefined })
    const response = await undiciTransport(url, { headers, signal: AbortSignal.timeout(config.timeoutMs) })
    if (response.status !== 200) throw new BenchError(`floor: broker answered ${response.status} for ${url}`)
    if (offset === 0) total = Number(response.headers.get('NGSILD-Results-Count'))
    pages += 1
    // A plain loop reads each page as text (as fetch's text() would), whatever the app does with the bytes.
    bytes += Buffer.byteLength(response.body.toString('utf8'))
    // Its bytes go back to the transport for the next page, as the app's do.
    response.release?.()
    offset += limit
  }
  return { ms: performance.now() - started, pages, entities: Math.min(total, settings.entities), bytes }
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface FeatureBody {
  type: string
  meta: { count: number; truncated: boolean; stale: boolean }
  features: { properties: Record<string, unknown> }[]
}

const featuresUrl = (stack: Stack, id: string | number) => `${stack.baseUrl}/api/layers/${id}/features?city=${TENANT}`

/** Set when a response came gzipped twice under one Content-Encoding: gzip (browsers then get gzip bytes, not JSON). */
const problems = new Set<string>()

const isGzip = (bytes: Buffer) => bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

/** The JSON of a gzip response, decoded once as a browser would; a second gzip layer is noted and undone. */
function decodeGzipBody(body: Buffer, what: string): { json: Buffer; singleGzipBytes: number } {
  const once = gunzipSync(body)
  if (!isGzip(once)) return { json: once, singleGzipBytes: body.byteLength }
  problems.add(`${what}: the body is gzipped twice under a single "Content-Encoding: gzip": a browser's fetch().json() fails on it`)
  return { json: gunzipSync(once), singleGzipBytes: once.byteLength }
}

/** One cold request: checks it is a complete gzipped collection with only the layer's attributes. */
async function coldRequest(stack: Stack, id: string | number) {
  const response = await timedGet(featuresUrl(stack, id), GZIP)
  expectStatus(response, 200, `cold GET of layer ${id}`)
  if (response.headers['content-encoding'] !== 'gzip') throw new BenchError('the features route did not gzip its answer')
  if (response.headers['x-data-state'] !== 'miss') throw new BenchError(`cold GET of layer ${id} was not a cache miss (X-Data-State ${response.headers['x-data-state']})`)
  const { json, singleGzipBytes } = decodeGzipBody(response.body, '50k layer')
  const body = JSON.parse(json.toString('utf8')) as FeatureBody
  const allowed = new Set(['entityId', 'entityType', 'observedAt', 'alert', ...ATTRIBUTES])
  const extra = body.features.flatMap((feature) => Object.keys(feature.properties)).find((key) => !allowed.has(key))
  if (extra) throw new BenchError(`feature property "${extra}" is not one of the layer's attributes`)
  if (body.meta.count !== body.features.length) throw new BenchError('meta.count differs from the features sent')
  return { ms: response.ms, wireBytes: response.body.byteLength, gzipBytes: singleGzipBytes, jsonBytes: json.byteLength, count: body.meta.count }
}

interface ColdSeries {
  floors: number[]
  colds: number[]
  last: Awaited<ReturnType<typeof coldRequest>>
  floorDetail: Awaited<ReturnType<typeof floorFetch>>
  /** CPU used per run: the app server during a cold request, the broker during each. */
  serverCpuMs: number[]
  brokerCpuMs: { floor: number[]; app: number[] }
}

/** Floor and cold app request, alternating, so that a change in machine load hits both alike. */
async function coldSeries(stack: Stack, admin: Admin, label: string): Promise<ColdSeries> {
  const pageSize = settings.pageSize ?? 1000
  const server = serverProcessOf(stack).pid
  const broker = brokerProcess(stack).pid
  const floors: number[] = []
  const colds: number[] = []
  const serverCpuMs: number[] = []
  const brokerCpuMs: ColdSeries['brokerCpuMs'] = { floor: [], app: [] }
  let last: ColdSeries['last'] | undefined
  let floorDetail: ColdSeries['floorDetail'] | undefined
  for (let run = 1; run <= settings.coldRuns; run++) {
    let brokerBefore = cpuTimeMs(broker)
    floorDetail = await floorFetch(stack.brokerUrl, pageSize)
    brokerCpuMs.floor.push(cpuTimeMs(broker) - brokerBefore)
    floors.push(floorDetail.ms)
    // A new layer document each time: a new cache key, so nothing of earlier runs is reused.
    const id = await createLayer(stack.baseUrl, admin, bigLayer(`${label} ${run}`))
    const serverBefore = cpuTimeMs(server)
    brokerBefore = cpuTimeMs(broker)
    last = await coldRequest(stack, id)
    brokerCpuMs.app.push(cpuTimeMs(broker) - brokerBefore)
    serverCpuMs.push(cpuTimeMs(server) - serverBefore)
    colds.push(last.ms)
    if (last.count !== floorDetail.entities) throw new BenchError(`the app sent ${last.count} features, the broker holds ${floorDetail.entities}`)
    log(`  ${label} run ${run}: floor ${round(floorDetail.ms)} ms, app ${round(last.ms)} ms (load ${describeLoadAvg()})`)
  }
  if (!last || !floorDetail) throw new BenchError('no cold run')
  return { floors, colds, last, floorDetail, serverCpuMs, brokerCpuMs }
}

const describeSeries = (series: ColdSeries) =>
  `app cold ms [${series.colds.map((ms) => round(ms)).join(', ')}] median ${round(median(series.colds))}, ` +
  `server CPU ${round(median(series.serverCpuMs))} ms and broker CPU ${round(median(series.brokerCpuMs.app))} ms per request; ` +
  `floor ms [${series.floors.map((ms) => round(ms)).join(', ')}] median ${round(median(series.floors))}, broker CPU ${round(median(series.brokerCpuMs.floor))} ms ` +
  `(${series.floorDetail.pages} sequential pages of ${settings.pageSize ?? 1000}, ${round(series.floorDetail.bytes / 1e6)} MB JSON)`

/** Every broker response held this long: a broker on another host, not sharing this machine's two cores. */
async function setBrokerLatency(stack: Stack, delayMs: number) {
  const response = await fetch(`${stack.brokerUrl}/__demo/fault`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delayMs > 0 ? { fault: 'slow', delayMs } : { fault: null }),
  })
  if (!response.ok) throw new BenchError(`demo broker refused the latency setting: HTTP ${response.status}`)
}

async function measureCold(stack: Stack, admin: Admin): Promise<Metric[]> {
  log('Cold: warm-up (untimed) of the floor loop and of one cold layer')
  await floorFetch(stack.brokerUrl, settings.pageSize ?? 1000)
  await coldRequest(stack, await createLayer(stack.baseUrl, admin, bigLayer('Warm-up')))
  const local = await coldSeries(stack, admin, 'cold')
  const { last } = local
  const metrics: Metric[] = [
    {
      name: 'cold 50k layer ÷ floor',
      value: round(median(local.colds) / median(local.floors), 2),
      unit: '×',
      target: { op: '<=', value: 1 },
      note: `${describeSeries(local)}; app page concurrency ${settings.pageConcurrency ?? 4}`,
    },
    { name: 'cold 50k layer time (median)', value: round(median(local.colds)), unit: 'ms' },
    { name: 'floor: sequential broker pages (median)', value: round(median(local.floors)), unit: 'ms' },
    {
      name: '50k response size, gzip',
      value: round(last.gzipBytes / 1e6, 2),
      unit: 'MB',
      note: `${last.gzipBytes} B gzip (${last.wireBytes} B on the wire), ${last.jsonBytes} B JSON, ${last.count} features`,
    },
    { name: 'bytes per feature, gzip (3 attributes)', value: round(last.gzipBytes / last.count, 1), unit: 'B', note: `uncompressed ${round(last.jsonBytes / last.count, 1)} B per feature` },
  ]
  if (settings.remoteLatencyMs > 0) {
    log(`Cold with ${settings.remoteLatencyMs} ms added to every broker response (a broker on another host)`)
    await setBrokerLatency(stack, settings.remoteLatencyMs)
    try {
      const remote = await coldSeries(stack, admin, `remote ${settings.remoteLatencyMs} ms`)
      metrics.push({
        name: `cold 50k ÷ floor, broker +${settings.remoteLatencyMs} ms/response`,
        value: round(median(remote.colds) / median(remote.floors), 2),
        unit: '×',
        target: { op: '<=', value: 0.7 },
        note: describeSeries(remote),
      })
    } finally {
      await setBrokerLatency(stack, 0)
    }
  }
  return metrics
}

/** A load run, with the app server's CPU time per request: steadier than req/s on a busy machine. */
async function loadWithServerCpu(stack: Stack, options: Parameters<typeof load>[0]) {
  const pid = serverProcessOf(stack).pid
  const before = cpuTimeMs(pid)
  const summary = await load(options)
  const used = cpuTimeMs(pid) - before
  return { summary, cpu: `server CPU ${round(used / summary.totalRequests, 2)} ms per request (${round(used / 1000 / summary.durationSeconds, 2)} cores)` }
}

async function measureWarm(stack: Stack, id: string | number): Promise<Metric[]> {
  const url = featuresUrl(stack, id)
  const first = await timedGet(url, GZIP)
  expectStatus(first, 200, 'warm layer priming request')
  const count = (JSON.parse(decodeGzipBody(first.body, 'warm layer').json.toString('utf8')) as FeatureBody).meta.count
  log(`Warm: ${count}-feature layer, autocannon ${settings.connections} connections × ${settings.duration} s (load ${describeLoadAvg()})`)
  await load({ url, connections: settings.connections, duration: 2, headers: GZIP })
  const { summary, cpu } = await loadWithServerCpu(stack, { url, connections: settings.connections, duration: settings.duration, headers: GZIP })
  expectOnly(summary, 200, 'warm layer')
  const note = `${count} features, ${first.body.byteLength} B gzip; ${describeLoad(summary)}; ${cpu}; load after ${describeLoadAvg()}`
  return [
    { name: `warm ${count}-feature layer`, value: Math.round(summary.requestsPerSecond), unit: 'req/s', target: { op: '>=', value: 1_500 }, note },
    { name: `warm ${count}-feature layer p99`, value: summary.latencyP99, unit: 'ms', target: { op: '<=', value: 50 } },
  ]
}

async function measureHistory(stack: Stack, id: string | number): Promise<Metric[]> {
  const url = `${stack.baseUrl}/api/layers/${id}/history?attributes=no2,pm10&window=day&aggregation=avg`
  const first = await timedGet(url, GZIP)
  expectStatus(first, 200, 'history priming request')
  log(`Warm history: autocannon ${settings.connections} connections × ${settings.duration} s (load ${describeLoadAvg()})`)
  await load({ url, connections: settings.connections, duration: 2, headers: GZIP })
  const { summary, cpu } = await loadWithServerCpu(stack, { url, connections: settings.connections, duration: settings.duration, headers: GZIP })
  expectOnly(summary, 200, 'warm history')
  const note = `${first.body.byteLength} B JSON, cold ${Math.round(first.ms)} ms; ${describeLoad(summary)}; ${cpu}; load after ${describeLoadAvg()}`
  return [
    { name: 'warm history route (1,000 entities, a day per hour)', value: Math.round(summary.requestsPerSecond), unit: 'req/s', target: { op: '>=', value: 1_500 }, note },
    { name: 'warm history route p99', value: summary.latencyP99, unit: 'ms', target: { op: '<=', value: 50 } },
  ]
}

async function measureConditional(stack: Stack, id: string | number): Promise<Metric[]> {
  const url = featuresUrl(stack, id)
  const first = await timedGet(url, GZIP)
  expectStatus(first, 200, '50k layer priming request')
  const etag = String(first.headers.etag)
  const headers = { ...GZIP, 'if-none-match': etag }
  const check = await timedGet(url, headers)
  expectStatus(check, 304, 'conditional request')
  log(`Conditional: If-None-Match on the 50k layer, autocannon ${settings.connections} connections × ${settings.duration} s (load ${describeLoadAvg()})`)
  await load({ url, connections: settings.connections, duration: 2, headers })
  const { summary, cpu } = await loadWithServerCpu(stack, { url, connections: settings.connections, duration: settings.duration, headers })
  expectOnly(summary, 304, 'conditional requests')
  return [
    {
      name: '50k layer If-None-Match → 304',
      value: Math.round(summary.requestsPerSecond),
      unit: 'req/s',
      target: { op: '>=', value: 2_000 },
      note: `${describeLoad(summary)}; ${cpu}; load after ${describeLoadAvg()}`,
    },
    { name: '50k layer 304 p99', value: summary.latencyP99, unit: 'ms' },
  ]
}

/** The broker's node process (tsx starts it as a child). */
function brokerProcess(stack: Stack): { pid: number; command: string } {
  // tsx runs node under node (and an esbuild service beside it): the deepest node process.
  const broker = processTree(stack.broker.child.pid ?? 0).findLast((proc) => proc.command === 'node')
  if (!broker) throw new BenchError('the demo broker is gone')
  return broker
}


/**
 * Fresh servers left alone: RSS when /api/health first says ready (after the warm-up), then once
 * idle for BENCH_IDLE_SECONDS (V8 gives back the pages its start-up garbage took a few seconds after
 * the last allocations), the median of BENCH_IDLE_STARTS starts (starts differ by ±15 MB).
 */
async function measureIdle(stack: Stack): Promise<Metric[]> {
  const atReady: number[] = []
  const idle: number[] = []
  for (let start = 0; start < settings.idleStarts; start++) {
    await restartServer(stack)
    const server = serverProcessOf(stack)
    atReady.push(Math.round(memoryOf(server.pid).rssMB))
    await sleep(settings.idleSeconds * 1000)
    idle.push(Math.round(memoryOf(server.pid).rssMB))
  }
  log(`Idle: RSS at ready ${atReady.join(', ')} MB; after ${settings.idleSeconds} s idle ${idle.join(', ')} MB`)
  return [
    {
      name: `fresh server: idle RSS ${settings.idleSeconds} s after ready (median of ${settings.idleStarts} starts)`,
      value: median(idle),
      unit: 'MB',
      target: { op: '<=', value: 220 },
      note: `each start: ${idle.join(', ')} MB; at ready ${atReady.join(', ')} MB (median ${median(atReady)})`,
    },
  ]
}

/**
 * A fresh server (the earlier cold loads leave the heap at its high-water mark), one cold load of the
 * 50k layer, then the rest of the requests under load: RSS after them, and the peak of that server's life.
 */
async function measureRss(stack: Stack, id: string | number): Promise<Metric[]> {
  log('RSS: restarting the app server')
  await restartServer(stack)
  const server = serverProcessOf(stack)
  const idle = memoryOf(server.pid)
  const url = featuresUrl(stack, id)
  const first = await timedGet(url, GZIP)
  expectStatus(first, 200, '50k layer first request')
  const loaded = memoryOf(server.pid)
  // With the in-process cache the restart emptied it: that first request was a cold load.
  const coldPeak: Metric[] =
    first.headers['x-data-state'] === 'miss'
      ? [
          {
            name: 'fresh server: peak RSS (VmHWM) through one cold 50k load',
            value: Math.round(loaded.peakMB),
            unit: 'MB',
            target: { op: '<=', value: 300 },
            note: `${Math.round(idle.rssMB)} MB idle before it (Next and Payload loaded), ${Math.round(loaded.rssMB)} MB after it; the same method as the 500k figure`,
          },
        ]
      : []
  log(`RSS: ${settings.rssRequests - 1} more gzip requests of the 50k layer, 10 connections (pid ${server.pid} ${server.command})`)
  const summary = await load({ url, connections: 10, amount: settings.rssRequests - 1, headers: GZIP })
  expectOnly(summary, 200, '50k layer requests')
  const after = memoryOf(server.pid)
  return [
    {
      name: `server RSS after ${settings.rssRequests} × 50k layer`,
      value: Math.round(after.rssMB),
      unit: 'MB',
      target: { op: '<=', value: 400 },
      note:
        `fresh server pid ${server.pid} (${server.command}): ${Math.round(idle.rssMB)} MB idle, ${Math.round(loaded.rssMB)} MB after the cold load, ` +
        `${Math.round(after.rssMB)} MB after ${settings.rssRequests} requests; ` +
        describeLoad(summary),
    },
    { name: 'server peak RSS (VmHWM) in those requests', value: Math.round(after.peakMB), unit: 'MB' },
    ...coldPeak,
  ]
}

/**
 * The broker restarted with BENCH_HUGE_ENTITIES entities and a fresh server: one cold load of
 * the whole set, streamed page by page, and the server's peak RSS over its life up to then.
 */
async function measureHuge(stack: Stack, admin: Admin): Promise<Metric[]> {
  const entities = settings.hugeEntities
  log(`Huge: restarting the demo broker with ${entities} AirQualityObserved and the app server`)
  await restartBroker(stack, entities, settings.flavor)
  await restartServer(stack)
  const server = serverProcessOf(stack)
  const idle = memoryOf(server.pid)
  const id = await createLayer(stack.baseUrl, admin, { ...bigLayer(`Huge ${entities}`), maxFeatures: entities })
  const serverBefore = cpuTimeMs(server.pid)
  const response = await timedGet(featuresUrl(stack, id), GZIP, 10 * 60_000)
  expectStatus(response, 200, `cold GET of the ${entities} layer`)
  const cpu = cpuTimeMs(server.pid) - serverBefore
  const after = memoryOf(server.pid)
  const { json } = decodeGzipBody(response.body, 'huge layer')
  const { meta } = JSON.parse(json.toString('utf8')) as FeatureBody
  if (meta.count !== entities) throw new BenchError(`the app sent ${meta.count} features of the ${entities} layer`)
  const tiles = await measureTiles(stack, id, entities)
  const withIndex = memoryOf(server.pid)
  return [
    {
      name: `cold ${Math.round(entities / 1000)}k layer: server peak RSS (VmHWM)`,
      value: Math.round(after.peakMB),
      unit: 'MB',
      target: { op: '<=', value: 450 },
      note:
        `fresh server pid ${server.pid}: ${Math.round(idle.rssMB)} MB idle, ${Math.round(after.rssMB)} MB after the load; ` +
        `${meta.count} features in ${round(response.ms)} ms, server CPU ${round(cpu)} ms; ${round(response.body.byteLength / 1e6, 1)} MB gzip, ` +
        `${round(json.byteLength / 1e6)} MB JSON; load after ${describeLoadAvg()}`,
    },
    { name: `cold ${Math.round(entities / 1000)}k layer time`, value: round(response.ms), unit: 'ms' },
    ...tiles,
    {
      name: `peak RSS (VmHWM) once the ${Math.round(entities / 1000)}k layer's tile index is built`,
      value: Math.round(withIndex.peakMB),
      unit: 'MB',
      note: `${Math.round(withIndex.rssMB)} MB RSS after the tile requests`,
    },
  ]
}

/** The tile at zoom 13 over the city centre: the map's first view of the huge layer. */
function cityTile(zoom: number, lon: number, lat: number) {
  const n = 2 ** zoom
  const rad = (lat * Math.PI) / 180
  return `${zoom}/${Math.floor(((lon + 180) / 360) * n)}/${Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)}`
}

/** The longest a request for the health route waited while `work` ran: how long the server's event loop was held. */
async function longestWaitDuring<T>(stack: Stack, work: Promise<T>): Promise<{ result: T; longestMs: number; probes: number }> {
  let running = true
  let longestMs = 0
  let probes = 0
  const probing = (async () => {
    while (running) {
      const began = performance.now()
      await (await fetch(`${stack.baseUrl}/api/health`)).arrayBuffer()
      longestMs = Math.max(longestMs, performance.now() - began)
      probes++
      await sleep(20)
    }
  })()
  try {
    return { result: await work, longestMs, probes }
  } finally {
    running = false
    await probing
  }
}

async function measureTiles(stack: Stack, id: string | number, entities: number): Promise<Metric[]> {
  const url = `${stack.baseUrl}/api/layers/${id}/tiles/${cityTile(13, -3.81, 43.462)}?city=${TENANT}`
  const { result: first, longestMs, probes } = await longestWaitDuring(stack, timedGet(url, GZIP, 5 * 60_000))
  expectStatus(first, 200, 'first tile of the huge layer (builds its index)')
  log(`Tiles: warm city tile of the ${entities} layer, autocannon ${settings.connections} connections × ${settings.duration} s (load ${describeLoadAvg()})`)
  await load({ url, connections: settings.connections, duration: 2, headers: GZIP })
  const { summary, cpu } = await loadWithServerCpu(stack, { url, connections: settings.connections, duration: settings.duration, headers: GZIP })
  expectOnly(summary, 200, 'warm tiles')
  const note = `first request (index built) ${round(first.ms)} ms, ${first.body.byteLength} B gzip; ${describeLoad(summary)}; ${cpu}; load after ${describeLoadAvg()}`
  return [
    { name: `first tile of the ${Math.round(entities / 1000)}k layer (builds its index)`, value: round(first.ms), unit: 'ms' },
    {
      name: 'longest wait of another request meanwhile',
      value: Math.round(longestMs),
      unit: 'ms',
      note: `${probes} health requests, one at a time, while the index was built: the index is built between batches of features, the clustering itself in one go`,
    },
    { name: `warm tiles of the ${Math.round(entities / 1000)}k layer`, value: Math.round(summary.requestsPerSecond), unit: 'req/s', target: { op: '>=', value: 1_500 }, note },
    { name: `warm tiles of the ${Math.round(entities / 1000)}k layer p99`, value: summary.latencyP99, unit: 'ms', target: { op: '<=', value: 50 } },
  ]
}

// ---------------------------------------------------------------------------------------------
// Report

function printTable(metrics: Metric[]) {
  const rows = metrics.map((metric) => {
    const ok = passes(metric)
    return [
      metric.name,
      `${metric.value} ${metric.unit}`,
      metric.target ? `${metric.target.op} ${metric.target.value} ${metric.unit}` : '',
      ok === undefined ? '' : ok ? 'pass' : 'MISS',
    ]
  })
  const header = ['metric', 'value', 'target', '']
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)))
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`
  console.log(`\n${line(header)}\n|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const row of rows) console.log(line(row))
  console.log('')
  for (const metric of metrics.filter((candidate) => candidate.note)) console.log(`- ${metric.name}: ${metric.note}`)
}

async function main() {
  const startedAt = new Date()
  const loadBefore = machineLoad()
  const busyBefore = busiestProcesses()
  const cache = settings.useRedis ? 'redis' : 'memory'
  log(`Load average ${loadBefore.loadAvg.join(' / ')} on ${loadBefore.cores} cores; cache: ${cache}`)
  await assertPortFree(settings.port, 'BENCH_PORT')
  await assertPortFree(settings.brokerPort, 'BENCH_BROKER_PORT')
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-bench-'))

  const metrics: Metric[] = []
  let succeeded = false
  let stack: Stack | undefined
  try {
    stack = await startStack({
      port: settings.port,
      brokerPort: settings.brokerPort,
      entities: settings.entities,
      flavor: settings.flavor,
      redisUrl: settings.useRedis ? settings.redisUrl : undefined,
      redisKeyPrefix: REDIS_KEY_PREFIX,
      pageSize: settings.pageSize,
      pageConcurrency: settings.pageConcurrency,
      forceBuild: settings.forceBuild,
      workDir,
      log,
    })
    const server = serverProcessOf(stack)
    log(`App up (server pid ${server.pid}, ${server.command}, ${Math.round(memoryOf(server.pid).rssMB)} MB); seeding an admin, the cities and layers`)
    const admin = await seedSite(stack.baseUrl)
    const warmLayer = await createLayer(stack.baseUrl, admin, { name: 'Warm 1,000', entityType: ENTITY_TYPE, attributes: ATTRIBUTES, maxFeatures: 1_000 })
    // Before anything else runs: the cold figures include the server's first use of the route.
    metrics.push(...(await withTimeout('cold benchmark', 10 * 60_000, measureCold(stack, admin))))
    const afterCold = memoryOf(server.pid)
    metrics.push({
      name: 'server peak RSS (VmHWM) over the cold loads',
      value: Math.round(afterCold.peakMB),
      unit: 'MB',
      target: { op: '<=', value: 300 },
      note: `${settings.coldRuns * (settings.remoteLatencyMs > 0 ? 2 : 1) + 1} cold loads of the 50k layer, one at a time; RSS after them ${Math.round(afterCold.rssMB)} MB`,
    })
    metrics.push(...(await measureWarm(stack, warmLayer)))
    metrics.push(...(await measureHistory(stack, warmLayer)))
    const big = await createLayer(stack.baseUrl, admin, bigLayer('Big 50,000'))
    metrics.push(...(await measureConditional(stack, big)))
    metrics.push(...(await measureIdle(stack)))
    metrics.push(...(await measureRss(stack, big)))
    if (settings.hugeEntities > 0) metrics.push(...(await withTimeout('huge layer', 15 * 60_000, measureHuge(stack, admin))))

    const loadAfter = machineLoad()
    metrics.push({
      name: 'gzip responses decode once (browser-readable)',
      value: problems.size === 0 ? 1 : 0,
      unit: problems.size === 0 ? '(yes)' : '(no)',
      target: { op: '>=', value: 1 },
      note: problems.size ? [...problems].join('; ') : undefined,
    })
    printTable(metrics)
    console.log(`\nLoad average before ${loadBefore.loadAvg.join(' / ')}, after ${loadAfter.loadAvg.join(' / ')} (${loadAfter.cores} cores); cache ${cache}`)
    console.log(`Busiest processes at start:\n  ${busyBefore.join('\n  ')}`)

    const results = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: `${settings.useRedis ? 'BENCH_REDIS=true ' : ''}npm run bench`,
      settings: { ...settings, cache, pageSize: settings.pageSize ?? 1000, pageConcurrency: settings.pageConcurrency ?? 4 },
      node: process.version,
      buildSeconds: stack.buildSeconds,
      machine: { before: loadBefore, after: loadAfter, busiestAtStart: busyBefore },
      metrics: metrics.map((metric) => ({ ...metric, pass: passes(metric) })),
      problems: [...problems],
    }
    const dir = path.join('bench', 'results')
    mkdirSync(dir, { recursive: true })
    const text = `${JSON.stringify(results, null, 2)}\n`
    writeFileSync(path.join(dir, 'latest.json'), text)
    writeFileSync(path.join(dir, `latest-${cache}.json`), text)
    log(`Wrote ${path.join(dir, 'latest.json')} and latest-${cache}.json`)
    succeeded = true
  } catch (error) {
    // Say so when a process under test died (crash, out of memory, or killed from outside).
    const gone = [stack?.server, stack?.broker].filter((proc) => proc && !alive(proc))
    for (const proc of gone) console.error(`The ${proc?.name} process exited (code ${proc?.child.exitCode}, signal ${proc?.child.signalCode})`)
    throw error
  } finally {
    await stopAll()
    if (settings.useRedis) await removeRedisKeys()
    if (succeeded) rmSync(workDir, { recursive: true, force: true })
    else console.error(`Logs of the broker, migration, build and server kept in ${workDir}`)
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130))
  })
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`\n✖ Benchmark failed: ${error instanceof Error ? error.message : String(error)}`)
    void stopAll().finally(() => process.exit(1))
  },
)
