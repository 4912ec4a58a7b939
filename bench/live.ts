/**
 * `npm run bench:live` (and a step of `npm run bench`): live updates (issue 25). Two production
 * servers (replicas A and B) on one fresh PostgreSQL database and one Redis, the demo broker
 * (Orion-LD flavour, 1,000 AirQualityObserved in Santander) notifying them:
 *
 * 1. broker update → page updated in Chromium (p50, p99 of BENCH_LIVE_PAGE_SAMPLES changes);
 * 2. BENCH_LIVE_STREAMS (10,000) streams on one replica, opened by a client in another process:
 *    the replica's RSS growth, and the delivery p99 of one 100-entity change to all of them;
 * 3. notification ingest (entity changes per second applied to the cached layer) while 1,000
 *    streams listen;
 * 4. replica A → replica B: a change notified at one replica, seen by a stream at the other (p99);
 * 5. broker requests over BENCH_LIVE_VIEWER_SECONDS (300) with 1 and with 1,000 viewers of a live
 *    page, the demo broker changing a reading every second (polling: proportional to viewers).
 *
 * Environment: BENCH_POSTGRES_URI (else TEST_POSTGRES_URI; skipped without), BENCH_REDIS_URL (else
 * REDIS_URL, else redis://127.0.0.1:6379), CHROMIUM_PATH. Reuses a current production build.
 * BENCH_LIVE_STEPS (e.g. `2,3`) runs only those steps; BENCH_PROFILE_DIR writes the CPU
 * profiles of each server and stream client there (`--cpu-prof`; the servers
 * through bench/cpuProfile.mjs, as NODE_OPTIONS may not say --cpu-prof).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'

import { chromium } from 'playwright-core'

import { freePort, startProcess, stopAll, waitForUrl } from '../scripts/processes'
import { ensureAccounts } from '../tests/helpers/accounts'
import { startCountingProxy } from '../tests/int/helpers/countingProxy'
import { migratedPostgresDatabase } from '../tests/helpers/migratedDatabases'
import { startAppServer, type AppServer } from '../tests/security/servers'

import { BenchError, memoryOf, processTree, round, sleep } from './lib'

const postgres = process.env.BENCH_POSTGRES_URI || process.env.TEST_POSTGRES_URI
const redisUrl = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const streamCount = Number(process.env.BENCH_LIVE_STREAMS || 10_000)
const pageSamples = Number(process.env.BENCH_LIVE_PAGE_SAMPLES || 30)
const viewerSeconds = Number(process.env.BENCH_LIVE_VIEWER_SECONDS || 300)
const viewers = Number(process.env.BENCH_LIVE_VIEWERS || 1_000)
const ingestStreams = 1_000
const steps = new Set((process.env.BENCH_LIVE_STEPS || '1,2,3,4,5').split(',').map((step) => Number(step.trim())))
const profileDir = process.env.BENCH_PROFILE_DIR
const TENANT = 'santander'
const stationId = (index: number) => `urn:ngsi-ld:AirQualityObserved:santander-${String(index).padStart(4, '0')}`

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN
}
const rssOfTree = (pid: number) => processTree(pid).reduce((sum, proc) => sum + (memoryOf(proc.pid).rssMB || 0), 0)

/** Stream clients in a process of their own. */
function clients() {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : []
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'liveClients.ts'), { execArgv: ['--import', 'tsx', ...profile], stdio: 'inherit' })
  const next = <T>(type: string) => new Promise<T>((resolve) => child.on('message', function listener(message: { type: string }) {
    if (message.type !== type) return
    child.off('message', listener)
    resolve(message as T)
  }))
  return {
    async open(url: string, count: number) {
      const done = next<{ opened: number; failed: number }>('opened')
      child.send({ type: 'open', url, count })
      return done
    },
    async watch(marker: string, trigger: () => Promise<number>) {
      const seen = next<{ times: number[]; missing: number }>('seen')
      child.send({ type: 'watch', marker })
      const startedAt = await trigger()
      const { times, missing } = await seen
      return { delays: times.map((time) => time - startedAt), missing }
    },
    async close() {
      const done = next('closed')
      child.send({ type: 'close' })
      await done
    },
  }
}

async function brokerWrite(brokerUrl: string, path: string, method: string, body: unknown): Promise<number> {
  const startedAt = Date.now()
  const response = await fetch(`${brokerUrl}/ngsi-ld/v1${path}`, { method, headers: { 'Content-Type': 'application/json', 'NGSILD-Tenant': TENANT }, body: JSON.stringify(body) })
  if (response.status >= 300) throw new BenchError(`broker ${method} ${path}: ${response.status} ${await response.text()}`)
  return startedAt
}

const upsertStations = (brokerUrl: string, count: number, no2: number) =>
  brokerWrite(
    brokerUrl,
    '/entityOperations/upsert',
    'POST',
    Array.from({ length: count }, (_, index) => ({ id: stationId(index + 1), type: 'AirQualityObserved', no2: { type: 'Property', value: no2, observedAt: new Date().toISOString() } })),
  )

async function main() {
  if (!postgres) return console.log('Live updates: skipped (BENCH_POSTGRES_URI or TEST_POSTGRES_URI must name a PostgreSQL server)')
  process.env.TEST_POSTGRES_URI = postgres
  const brokerPort = await freePort()
  const brokerUrl = `http://127.0.0.1:${brokerPort}`
  startProcess(path.join('node_modules', '.bin', 'tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort), '--entities', '1000'], { quiet: true })
  await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })
  // The servers read the broker through a counting proxy (figure 5); the broker notifies them directly.
  const proxy = await startCountingProxy(brokerUrl)
  const database = await migratedPostgresDatabase('bench_live')
  const servers: AppServer[] = []
  const results: string[] = []
  const report = (line: string) => {
    results.push(line)
    console.log(line)
  }
  try {
    const shared = {
      APP_SECRET: randomBytes(32).toString('hex'),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `citydash-bench-live-${process.pid}-${Date.now()}:`,
      LOG_LEVEL: 'error',
      LIVE_MAX_STREAMS_PER_CLIENT: String(streamCount + 100),
      LIVE_MAX_STREAMS: String(streamCount + 100),
      LIVE_CHECK_SECONDS: '30',
      ...(profileDir && { BENCH_PROFILE_DIR: path.resolve(profileDir), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${path.join(import.meta.dirname, 'cpuProfile.mjs')}`.trim() }),
    }
    for (let i = 0; i < 2; i++) servers.push(await startAppServer({ databaseUri: database.uri, brokerUrl: proxy.url, env: shared }))
    const [a, b] = servers as [AppServer, AppServer]
    const { token } = (await ensureAccounts(a.baseUrl, ['admin'])).admin
    const rest = async (method: string, route: string, body: unknown) => {
      const response = await fetch(`${a.baseUrl}${route}`, { method, headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, origin: a.baseUrl }, body: JSON.stringify(body) })
      if (!response.ok) throw new BenchError(`${method} ${route}: ${response.status} ${await response.text()}`)
      return response.json() as Promise<{ doc: { id: number } }>
    }
    await rest('POST', '/api/globals/site-settings', { title: 'Bench city', cities: [{ name: 'Santander', tenant: TENANT, latitude: 43.46, longitude: -3.81, zoom: 13 }], mapStyle: { kind: 'offline' } })
    const { doc } = await rest('POST', '/api/map-layers', { name: 'bench live', entityType: 'AirQualityObserved', attributes: ['name', 'no2'], public: true, refreshSeconds: 300, maxFeatures: 5000, style: { colourBy: 'style', cluster: false } })
    await rest('POST', '/api/pages', { title: 'Bench live', slug: 'bench-live', _status: 'published', layout: [{ blockType: 'entityTable', title: 'Stations', layer: doc.id, columns: ['no2'], pageSize: 10 }] })
    const streamPath = `/api/live?layers=${doc.id}&city=${TENANT}`
    // Warm both replicas' layer caches, and wait for the subscription (one, shared through Redis).
    for (const server of servers) await fetch(`${server.baseUrl}/api/layers/${doc.id}/features?city=${TENANT}`)
    let notified: AppServer | undefined
    for (let attempt = 0; attempt < 200 && !notified; attempt++) {
      const list = (await (await fetch(`${brokerUrl}/ngsi-ld/v1/subscriptions`, { headers: { 'NGSILD-Tenant': TENANT } })).json()) as { notification: { endpoint: { uri: string } } }[]
      notified = servers.find((server) => list.some((item) => item.notification.endpoint.uri.startsWith(server.baseUrl)))
      if (!notified) await sleep(100)
    }
    if (!notified) throw new BenchError('no subscription was made')
    const other = notified === a ? b : a

    // Each replica keeps the city list 10 s: wait until both know the city just saved.
    for (const server of servers) {
      for (let attempt = 0; attempt < 60; attempt++) {
        const controller = new AbortController()
        const answer = await fetch(`${server.baseUrl}${streamPath}`, { signal: controller.signal })
        controller.abort()
        if (answer.status === 200) break
        await sleep(500)
      }
    }

    // 1. Chromium: a broker PATCH → the table row's text changed.
    if (steps.has(1)) {
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
      const page = await browser.newPage()
      await page.goto(`${other.baseUrl}/bench-live`)
      await page.locator('.live-status--live').first().waitFor({ timeout: 30_000 })
      const delays: number[] = []
      for (let sample = 1; sample <= pageSamples; sample++) {
        // Below 1,000: the table shows 1,001 with a separator.
        const value = 500 + sample
        // The observer is in place before the change is made (a change seen before it was would never resolve).
        await page.evaluate((text) => {
          const seen = ((window as unknown as { __seen: Record<string, number> }).__seen ??= {})
          const observer = new MutationObserver(() => {
            if (document.querySelector('.entity-table tbody tr')?.textContent?.includes(text)) {
              observer.disconnect()
              seen[text] = performance.timeOrigin + performance.now()
            }
          })
          observer.observe(document.body, { subtree: true, childList: true, characterData: true })
        }, String(value))
        const startedAt = await brokerWrite(brokerUrl, `/entities/${encodeURIComponent(stationId(1))}/attrs`, 'PATCH', { no2: { type: 'Property', value, observedAt: new Date().toISOString() } })
        const seenAt = await page.waitForFunction((text) => (window as unknown as { __seen: Record<string, number> }).__seen[text], String(value), { timeout: 10_000 })
        delays.push(Number(await seenAt.jsonValue()) - startedAt)
        await sleep(200)
      }
      await browser.close()
      report(`broker update → page updated (Chromium, ${pageSamples} changes, replica not notified): p50 ${round(percentile(delays, 0.5))} ms, p99 ${round(percentile(delays, 0.99))} ms (target p50 ≤ 250 ms, p99 ≤ 1000 ms)`)
    }

    // 4. Replica A → B: the notified replica applies, the other's stream delivers.
    if (steps.has(4)) {
      const watcher = clients()
      await watcher.open(`${other.baseUrl}${streamPath}`, 1)
      const delays: number[] = []
      for (let sample = 0; sample < 100; sample++) {
        const value = 2000 + sample
        const result = await watcher.watch(`"no2":${value}`, () => brokerWrite(brokerUrl, `/entities/${encodeURIComponent(stationId(2))}/attrs`, 'PATCH', { no2: { type: 'Property', value, observedAt: new Date().toISOString() } }))
        delays.push(...result.delays)
      }
      await watcher.close()
      report(`replica → replica stream delivery (100 changes, broker → notified replica → Redis → stream at the other): p50 ${round(percentile(delays, 0.5))} ms, p99 ${round(percentile(delays, 0.99))} ms (target p99 ≤ 500 ms)`)
    }

    // 2. Many streams on one replica: memory, and one 100-entity change to all.
    if (steps.has(2)) {
      const target = notified
      const serverPid = target.pid
      const before = rssOfTree(serverPid)
      const many = clients()
      const { opened, failed } = await many.open(`${target.baseUrl}${streamPath}`, streamCount)
      await sleep(2000)
      const after = rssOfTree(serverPid)
      const result = await many.watch('"no2":3001', () => upsertStations(brokerUrl, 100, 3001))
      await many.close()
      report(
        `${opened} concurrent streams on one replica (${failed} refused; client in another process): RSS ${round(before)} → ${round(after)} MB, growth ${round(after - before)} MB (target ≤ 250 MB); ` +
          `a 100-entity change to all: p50 ${round(percentile(result.delays, 0.5))} ms, p99 ${round(percentile(result.delays, 0.99))} ms, ${result.missing} missed (target p99 ≤ 2000 ms)`,
      )
    }

    // 3. Ingest: notifications of 1,000 entities each, straight at the notify route, 1,000 streams listening.
    if (steps.has(3)) {
      const list = (await (await fetch(`${brokerUrl}/ngsi-ld/v1/subscriptions`, { headers: { 'NGSILD-Tenant': TENANT } })).json()) as { id: string; notification: { endpoint: { uri: string } } }[]
      const subscription = list.find((item) => item.notification.endpoint.uri.startsWith(notified.baseUrl))!
      const listeners = clients()
      await listeners.open(`${notified.baseUrl}${streamPath}`, ingestStreams)
      const batches = 20
      const entitiesPerBatch = 1000
      const body = (round_: number) =>
        JSON.stringify({
          id: `urn:ngsi-ld:Notification:bench-${round_}`,
          type: 'Notification',
          subscriptionId: subscription.id,
          notifiedAt: new Date().toISOString(),
          data: Array.from({ length: entitiesPerBatch }, (_, index) => ({
            id: stationId(index + 1),
            type: 'AirQualityObserved',
            no2: { type: 'Property', value: 5000 + round_, observedAt: new Date(Date.now() + round_).toISOString() },
            location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8 + index / 10_000, 43.46] } },
          })),
        })
      const bodies = Array.from({ length: batches }, (_, index) => body(index + 1))
      const result = await listeners.watch(`"no2":${5000 + batches}`, async () => {
        const startedAt = Date.now()
        for (const text of bodies) {
          const answer = await fetch(subscription.notification.endpoint.uri, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text })
          if (answer.status !== 200) throw new BenchError(`notify answered ${answer.status}`)
        }
        return startedAt
      })
      await listeners.close()
      const seconds = percentile(result.delays, 1) / 1000
      report(`notification ingest with ${ingestStreams} streams listening: ${batches * entitiesPerBatch} entity changes applied and delivered in ${round(seconds, 2)} s = ${Math.round((batches * entitiesPerBatch) / seconds)} changes/s, ${result.missing} streams missed the last (target ≥ 5,000/s)`)
    }

    // 5. Broker requests with 1 and with many viewers of a live page (each: the layer once, then its stream).
    if (steps.has(5)) {
      const counts: number[] = []
      for (const viewerCount of [1, viewers]) {
        const before = proxy.requests.length
        const group = clients()
        for (let viewer = 0; viewer < viewerCount; viewer++) void fetch(`${a.baseUrl}/api/layers/${doc.id}/features?city=${TENANT}`).then((response) => response.arrayBuffer())
        await group.open(`${a.baseUrl}${streamPath}`, viewerCount)
        const deadline = Date.now() + viewerSeconds * 1000
        let value = 7000
        while (Date.now() < deadline) {
          await brokerWrite(brokerUrl, `/entities/${encodeURIComponent(stationId(3))}/attrs`, 'PATCH', { no2: { type: 'Property', value: value++, observedAt: new Date().toISOString() } })
          await sleep(1000)
        }
        await group.close()
        counts.push(proxy.requests.length - before)
      }
      report(`broker requests over ${viewerSeconds} s of a live page, a change every second: ${counts[0]} with 1 viewer, ${counts[1]} with ${viewers} viewers (target: equal; polling every 300 s would be about ${Math.ceil(viewerSeconds / 300)} × viewers without the shared cache)`)
    }
  } finally {
    for (const server of servers) server.stop()
    await proxy.close()
    await database.drop()
    stopAll()
  }
  console.log(`\nLive updates:\n${results.map((line) => `  - ${line}`).join('\n')}`)
}

main().catch((error) => {
  console.error(error instanceof BenchError ? error.message : error)
  stopAll()
  process.exit(1)
})
