/**
 * `npm run bench:replicas` (and the last step of `npm run bench`): what two replicas serve compared
 * with one (issue 12 part 6). Two production servers on one fresh PostgreSQL database and one
 * Redis (same key prefix and secret),
 * the demo broker with BENCH_REPLICA_ENTITIES (1,000) AirQualityObserved entities; a warm layer
 * of them under autocannon, first at replica A alone, then at A and B in parallel with half the
 * connections each (what a round-robin balancer does). On one machine both replicas share its
 * cores, so the ratio shows the coordination cost more than the gain of a second machine.
 *
 * Environment: BENCH_POSTGRES_URI (else TEST_POSTGRES_URI; without either it is skipped), BENCH_REDIS_URL (else
 * REDIS_URL, else redis://127.0.0.1:6379), BENCH_DURATION (10 s), BENCH_CONNECTIONS (50).
 * Reuses a current production build (builds one otherwise).
 */
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'

import { Redis } from 'ioredis'

import { freePort, startProcess, stopAll, waitForUrl } from '../scripts/processes'
import { ensureAccounts } from '../tests/helpers/accounts'
import { migratedPostgresDatabase } from '../tests/helpers/migratedDatabases'
import { startAppServer, type AppServer } from '../tests/security/servers'

import { BenchError, describeLoad, describeLoadAvg, expectOnly, load, round, type LoadSummary } from './lib'

const postgres = process.env.BENCH_POSTGRES_URI || process.env.TEST_POSTGRES_URI
const redisUrl = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const duration = Number(process.env.BENCH_DURATION || 10)
const connections = Number(process.env.BENCH_CONNECTIONS || 50)
const entities = Number(process.env.BENCH_REPLICA_ENTITIES || 1_000)
const GZIP = { 'accept-encoding': 'gzip' }

function combine(runs: LoadSummary[]): { requestsPerSecond: number; p99: number } {
  return {
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0),
    p99: Math.max(...runs.map((run) => run.latencyP99)),
  }
}

async function main() {
  // The last step of `npm run bench`, which runs on machines without PostgreSQL too.
  if (!postgres) return console.log('Two replicas: skipped (BENCH_POSTGRES_URI or TEST_POSTGRES_URI must name a PostgreSQL server)')
  process.env.TEST_POSTGRES_URI = postgres
  const keyPrefix = `citydash-bench-replicas-${process.pid}-${Date.now()}:`
  const brokerPort = await freePort()
  const brokerUrl = `http://127.0.0.1:${brokerPort}`
  startProcess(path.join('node_modules', '.bin', 'tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort), '--entities', String(entities)], { quiet: true })
  const database = await migratedPostgresDatabase('bench_replicas')
  const servers: AppServer[] = []
  try {
    await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })
    const shared = { APP_SECRET: randomBytes(32).toString('hex'), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'error' }
    for (let i = 0; i < 2; i++) servers.push(await startAppServer({ databaseUri: database.uri, brokerUrl, env: shared }))
    const [a, b] = servers as [AppServer, AppServer]
    const { token } = (await ensureAccounts(a.baseUrl, ['admin'])).admin
    const created = await fetch(`${a.baseUrl}/api/map-layers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, origin: a.baseUrl },
      body: JSON.stringify({ name: 'bench replicas', entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'airQualityLevel'], public: true, refreshSeconds: 300, maxFeatures: 50_000 }),
    })
    if (created.status !== 201) throw new BenchError(`creating the layer: HTTP ${created.status}`)
    const { doc } = (await created.json()) as { doc: { id: number } }
    const url = (server: AppServer) => `${server.baseUrl}/api/layers/${doc.id}/features`
    for (const server of servers) {
      const warm = await fetch(url(server), { headers: GZIP })
      if (warm.status !== 200) throw new BenchError(`warming ${server.baseUrl}: HTTP ${warm.status}`)
    }
    await Promise.all(servers.map((server) => load({ url: url(server), connections: connections / 2, duration: 2, headers: GZIP })))

    console.log(`One replica: ${connections} connections × ${duration} s at A (load ${describeLoadAvg()})`)
    const one = await load({ url: url(a), connections, duration, headers: GZIP })
    expectOnly(one, 200, 'one replica')
    console.log(`  ${describeLoad(one)}`)

    console.log(`Two replicas: ${connections / 2} connections each at A and B in parallel (load ${describeLoadAvg()})`)
    const both = await Promise.all([a, b].map((server) => load({ url: url(server), connections: connections / 2, duration, headers: GZIP })))
    both.forEach((run, i) => {
      expectOnly(run, 200, `replica ${i === 0 ? 'A' : 'B'}`)
      console.log(`  ${i === 0 ? 'A' : 'B'}: ${describeLoad(run)}`)
    })
    const two = combine(both)
    console.log('')
    console.log(`warm ${entities}-feature layer, one replica:   ${Math.round(one.requestsPerSecond)} req/s, p99 ${one.latencyP99} ms`)
    console.log(`warm ${entities}-feature layer, two replicas:  ${Math.round(two.requestsPerSecond)} req/s, p99 ${two.p99} ms`)
    console.log(`two ÷ one: ${round(two.requestsPerSecond / one.requestsPerSecond, 2)}× on this ${os.cpus().length}-core machine (both replicas share its cores)`)
  } finally {
    for (const server of servers) server.stop()
    stopAll()
    await database.drop()
    const redis = new Redis(redisUrl)
    const keys = await redis.keys(`${keyPrefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BenchError ? error.message : error)
  process.exitCode = 1
})
