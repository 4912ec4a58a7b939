/**
 * `tsx bench/alert-mail.ts` (part of `npm run bench`): 10,000 confirmed subscribers of one alert
 * are mailed through the jobs queue to a local SMTP server while the layer route is under load.
 *
 * The production server runs with SMTP_URL set; the mail queue is worked by a separate jobs runner
 * at low CPU priority (`nice payload jobs:run --queue email`), as a deployment with many subscribers
 * runs it (the server's own cron also works it, 50 mails per 5 s). The runner is a session of its
 * own, and Linux weighs sessions against each other before nice counts (autogroup), so its
 * session's group is lowered to nice 19 as well: otherwise "nice" takes as much CPU as the server.
 * The SMTP server, which stands in for the city's relay on another machine, runs in its own
 * process at nice 19 too. After one uncounted warm-up run, rounds alternate, in turn order swapped
 * each time: the warm layer route under autocannon with no mail going out, and the same while the
 * 10,000 notices of a fresh alert go out. Prints each round (with the server's CPU time per
 * request), the median of the with ÷ without ratios (target ≥ 0.95), the mails per second from
 * first to last mail of each alert and the fan-out's time (alert to first mail); writes
 * bench/results/alert-mail.json.
 *
 * Environment: BENCH_ROUNDS (5 pairs), BENCH_DURATION (10 s), BENCH_CONNECTIONS (50),
 * BENCH_SUBSCRIBERS (10000), BENCH_MAIL_IN_SERVER=true, BENCH_BUILD=true; MAIL_SEND_RATE reaches the
 * runner (mails per second).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createClient } from '@libsql/client'
import { freePort } from '../scripts/processes'

import { BenchError, cpuTimeMs, describeLoad, describeLoadAvg, expectOnly, load, median, round, sleep } from './lib'
import { call, createLayer, seedSite, serverProcessOf, startStack, stopAll } from './stack'

const integer = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = {
  rounds: integer('BENCH_ROUNDS', 5),
  duration: integer('BENCH_DURATION', 10),
  connections: integer('BENCH_CONNECTIONS', 50),
  subscribers: integer('BENCH_SUBSCRIBERS', 10_000),
}
const GZIP = { 'accept-encoding': 'gzip, deflate, br' }
const log = (message: string) => console.error(`[alert-mail ${new Date().toISOString().slice(11, 19)}] ${message}`)

/** The counting SMTP server (bench/countingSmtp.ts) at nice 19, as a relay on another machine would take none of this one's CPU. */
async function startCountingSmtp() {
  const arrivals: number[] = []
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', path.join(import.meta.dirname, 'countingSmtp.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new BenchError(`the SMTP stand-in exited (${code})`)))
    child.on('message', (message: { type: string; port?: number; times?: number[] }) => {
      if (message.type === 'listening') resolve(message.port!)
      if (message.type === 'arrivals') arrivals.push(...message.times!)
    })
  })
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    close: async () => {
      child.disconnect()
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/** Confirmed subscribers written straight into the database: confirming 10,000 by mail is not what is measured. */
async function insertSubscribers(databaseUri: string, layerId: string | number, count: number) {
  const db = createClient({ url: databaseUri })
  const now = new Date().toISOString()
  const statements = Array.from({ length: count }, (_, index) => ({
    sql: `INSERT INTO alert_subscriptions (email, subscriber_key, layer_id, city, minimum_level, status, confirmed_at, quiet_hours_enabled, secret, updated_at, created_at)
          VALUES (?, ?, ?, 'santander', 'warning', 'confirmed', ?, 0, ?, ?, ?)`,
    args: [`subscriber-${index}@bench.example`, `bench-${index}`, Number(layerId), now, randomBytes(24).toString('base64url'), now, now],
  }))
  for (let start = 0; start < statements.length; start += 1_000) await db.batch(statements.slice(start, start + 1_000), 'write')
  db.close()
}

/** nice 19 for the whole session of `pid` (its autogroup), where the kernel groups by session. */
function lowerSessionPriority(pid: number) {
  const autogroup = `/proc/${pid}/autogroup`
  if (existsSync(autogroup)) writeFileSync(autogroup, '19')
}

let runner: ReturnType<typeof spawn> | undefined
const stopRunner = () => {
  if (runner?.pid && runner.exitCode === null) process.kill(-runner.pid, 'SIGTERM')
}

async function main() {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-alert-mail-'))
  const smtp = await startCountingSmtp()
  const stack = await startStack({
    port: await freePort(),
    brokerPort: await freePort(),
    entities: 1_000,
    flavor: 'orion-ld',
    forceBuild: process.env.BENCH_BUILD === 'true',
    workDir,
    log,
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Benchmark city <alerts@bench.example>',
      // BENCH_MAIL_IN_SERVER=true: the server works the mail queue too (its default), beside the worker.
      MAIL_QUEUE_IN_SERVER: process.env.BENCH_MAIL_IN_SERVER === 'true' ? 'true' : 'false',
    },
  })
  const admin = await seedSite(stack.baseUrl)
  // One alert: only the polluted station (1) is above 210 µg/m³.
  const rule = (round: number) => [{ attribute: 'no2', operator: 'gt', value: String(210 + round / 100), level: 'critical', message: 'NO2 at {value}' }]
  const layerId = await createLayer(stack.baseUrl, admin, { name: 'Air quality', entityType: 'AirQualityObserved', attributes: ['name', 'no2'], maxFeatures: 1_000, refreshSeconds: 600 })
  await call(stack.baseUrl, 'PATCH', `/api/map-layers/${layerId}`, { alertRules: rule(0) }, admin.token)
  const url = `${stack.baseUrl}/api/layers/${layerId}/features?city=santander`
  // Warm before anyone subscribes: this load's alert concerns nobody, so no mail goes out until a round asks.
  await fetch(url)
  log(`Inserting ${settings.subscribers} confirmed subscribers`)
  await insertSubscribers(stack.env.DATABASE_URI!, layerId, settings.subscribers)

  log('Starting the mail queue runner (nice 19, every second, 100 mails a tick)')
  runner = spawn('nice', ['-n', '19', path.join('node_modules', '.bin', 'payload'), 'jobs:run', '--queue', 'email', '--limit', '100', '--cron', '* * * * * *'], {
    env: stack.env,
    stdio: 'ignore',
    detached: true,
  })
  lowerSessionPriority(runner.pid!)
  const server = serverProcessOf(stack)
  const measure = async (label: string) => {
    const cpuBefore = cpuTimeMs(server.pid)
    const summary = await load({ url, connections: settings.connections, duration: settings.duration, headers: GZIP })
    expectOnly(summary, 200, label)
    const cpuPerRequest = (cpuTimeMs(server.pid) - cpuBefore) / summary.totalRequests
    log(`${label}: ${round(summary.requestsPerSecond)} req/s, server CPU ${round(cpuPerRequest, 2)} ms/request (${describeLoad(summary)}; load ${describeLoadAvg()})`)
    return { rps: summary.requestsPerSecond, cpuPerRequest }
  }
  // Not counted: the server's code and caches warm over the first runs, which would favour whichever side came later.
  await measure('warm-up')

  type Measured = Awaited<ReturnType<typeof measure>>
  const results: { round: number; without: Measured; with: Measured; mailsPerSecond: number; deliverySeconds: number; fanOutSeconds: number }[] = []
  let expected = 0
  try {
    for (let index = 1; index <= settings.rounds; index++) {
      const mailing = async () => {
        // A new rule value is a new rule: its alert is new, so all subscribers are told once more.
        await call(stack.baseUrl, 'PATCH', `/api/map-layers/${layerId}`, { alertRules: rule(index) }, admin.token)
        await sleep(6_000) // the layer document's few seconds of memory
        const before = smtp.arrivals.length
        expected += settings.subscribers
        await fetch(url) // the fresh load that raises the alert
        const began = Date.now()
        while (smtp.arrivals.length === before) {
          // The fan-out (a job row per subscriber) runs in the low-priority runner: minutes on a busy machine.
          if (Date.now() - began > 10 * 60_000) throw new BenchError('no notice reached the SMTP server within 10 minutes')
          await sleep(100)
        }
        const fanOutSeconds = (smtp.arrivals[before]! - began) / 1000
        const measured = await measure(`round ${index} while mailing (${smtp.arrivals.length - before} mails so far)`)
        while (smtp.arrivals.length < expected) {
          if (Date.now() - began > 30 * 60_000) throw new BenchError(`only ${smtp.arrivals.length - before} of ${settings.subscribers} mails in 30 minutes`)
          await sleep(250)
        }
        const seconds = (smtp.arrivals[expected - 1]! - smtp.arrivals[before]!) / 1000
        return { measured, mailsPerSecond: settings.subscribers / seconds, deliverySeconds: seconds, fanOutSeconds }
      }
      const quiet = () => measure(`round ${index} without mail`)
      let without: Measured
      let withMail: Awaited<ReturnType<typeof mailing>>
      if (index % 2 === 1) {
        without = await quiet()
        withMail = await mailing()
      } else {
        withMail = await mailing()
        await sleep(2_000)
        without = await quiet()
      }
      const { measured, ...delivery } = withMail
      results.push({ round: index, without, with: measured, ...delivery })
      log(`round ${index}: ${round(withMail.mailsPerSecond)} mails/s (${settings.subscribers} in ${round(withMail.deliverySeconds)} s after a ${round(withMail.fanOutSeconds)}-s fan-out), layer route ${round(measured.rps / without.rps, 3)} × without`)
    }
  } finally {
    stopRunner()
    await stopAll()
    await smtp.close()
    rmSync(workDir, { recursive: true, force: true })
  }

  const ratio = median(results.map((result) => result.with.rps / result.without.rps))
  const mailsPerSecond = median(results.map((result) => result.mailsPerSecond))
  console.log(`\nAlert notices through the mail queue (${settings.subscribers} subscribers of one alert) beside the warm layer route`)
  console.table(
    results.map((result) => ({
      round: result.round,
      without: round(result.without.rps),
      with: round(result.with.rps),
      ratio: round(result.with.rps / result.without.rps, 3),
      'CPU ms/req without': round(result.without.cpuPerRequest, 2),
      'CPU ms/req with': round(result.with.cpuPerRequest, 2),
      mailsPerSecond: round(result.mailsPerSecond),
      fanOutSeconds: round(result.fanOutSeconds),
    })),
  )
  console.log(`layer route with ÷ without mailing, median: ${round(ratio, 3)} (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`)
  console.log(`mails per second, median: ${round(mailsPerSecond)}`)
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/alert-mail.json', JSON.stringify({ settings, results, ratio, mailsPerSecond, loadAvg: os.loadavg() }, null, 2))
}

main().catch(async (error: unknown) => {
  console.error(error instanceof BenchError ? `✖ ${error.message}` : error)
  stopRunner()
  await stopAll()
  process.exit(1)
})
