/**
 * `tsx bench/oracles.ts` (part of `npm run bench`): whether the forms that take an address answer
 * in the same time whatever the address's state (no timing oracle), against the production build
 * with a real SMTP server (demo/mail/smtp.ts) and the server's own mail queue running:
 *
 *   - POST /api/users/login with a wrong password for an address with an account, and one without;
 *   - POST /api/users (sign-up) with an address that has an account, and a new one;
 *   - POST /api/users/forgot-password for an address with an account, and one without;
 *   - POST /api/alerts/subscribe for a new address, a pending one and a confirmed one.
 *
 * The states are interleaved (one request of each in turn, in an order that rotates, each from its
 * own client address and to its own address, so no budget refuses), after ORACLE_WARMUP unrecorded
 * rounds. Figure: each state's median ÷ the fastest state's median on the same route, measured in
 * the same run (target ≤ 1.10).
 *
 * Environment: ORACLE_ROUNDS (50), ORACLE_WARMUP (10), ORACLE_PORT (3540), ORACLE_BROKER_PORT
 * (1540), BENCH_BUILD=true. Writes bench/results/oracles.json.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import { linksOf, startSmtpCatcher } from '../demo/mail/smtp'

import { BenchError, clientAddresses, describeLoadAvg, median, round, sleep } from './lib'
import { benchOnSmallStack, call, seedSite } from './stack'

const integer = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = { rounds: integer('ORACLE_ROUNDS', 50), warmup: integer('ORACLE_WARMUP', 10), port: integer('ORACLE_PORT', 3540), brokerPort: integer('ORACLE_BROKER_PORT', 1540) }
const TARGET_RATIO = 1.1
const log = (message: string) => console.log(`• ${message}`)

/** A client address of its own for every request: the per-client budgets never refuse. */
const nextClient = clientAddresses()

async function timedPost(url: string, body: unknown): Promise<{ ms: number; status: number }> {
  const started = performance.now()
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextClient() }, body: JSON.stringify(body) })
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

async function main() {
  const smtp = await startSmtpCatcher()
  await benchOnSmallStack(
    { name: 'oracles', port: [settings.port, 'ORACLE_PORT'], brokerPort: [settings.brokerPort, 'ORACLE_BROKER_PORT'], env: { SMTP_URL: smtp.url, EMAIL_FROM: 'noreply@bench.example' }, log },
    async (stack) => {
      const { baseUrl } = stack
      const admin = await seedSite(baseUrl)
      const perState = settings.rounds + settings.warmup
      const layer = await call<{ doc: { id: number } }>(
        baseUrl,
        'POST',
        '/api/map-layers',
        {
          name: 'Air quality (oracles)',
          public: true,
          entityType: 'AirQualityObserved',
          attributes: ['name', 'no2'],
          maxFeatures: 1000,
          alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 at {value}' }],
        },
        admin.token,
      )
      const signUp = (email: string) => ({ email, layer: layer.doc.id, city: 'santander', minimumLevel: 'warning' })

      log(`Making ${perState} accounts, ${perState} pending and ${perState} confirmed alert sign-ups`)
      const password = randomBytes(12).toString('hex')
      for (let index = 0; index < perState; index++) {
        await call(baseUrl, 'POST', '/api/users', { email: `known-${index}@bench.example`, password, name: `Known ${index}`, role: 'viewer' }, admin.token)
      }
      for (let index = 0; index < perState; index++) {
        for (const state of ['pending', 'confirmed']) {
          const answer = await timedPost(`${baseUrl}/api/alerts/subscribe`, signUp(`${state}-${index}@bench.example`))
          if (answer.status !== 202) throw new BenchError(`a sign-up for the setup answered ${answer.status}`)
        }
      }
      for (let index = 0; index < perState; index++) {
        const address = `confirmed-${index}@bench.example`
        const mail = await smtp.waitForMail((candidate) => candidate.envelopeTo.includes(address), 120_000)
        const link = new URL(linksOf(mail).find((url) => url.includes('/alerts/confirm'))!)
        const confirmed = await timedPost(`${baseUrl}/api/alerts/confirm`, { s: link.searchParams.get('s'), t: link.searchParams.get('t') })
        if (confirmed.status !== 200) throw new BenchError(`a confirmation for the setup answered ${confirmed.status}`)
      }
      await smtp.waitForMail((candidate) => candidate.envelopeTo.includes(`pending-${perState - 1}@bench.example`), 120_000)

      const states = {
        'sign-in: account': (index: number) => ['/api/users/login', { email: `known-${index}@bench.example`, password: 'Not-the-password-2026' }],
        'sign-in: no account': (index: number) => ['/api/users/login', { email: `nobody-${index}@bench.example`, password: 'Not-the-password-2026' }],
        'sign-up: account': (index: number) => ['/api/users', { email: `known-${index}@bench.example`, password: 'Another-passphrase-2026' }],
        'sign-up: new address': (index: number) => ['/api/users', { email: `newcomer-${index}@bench.example`, password: 'Another-passphrase-2026' }],
        'reset: account': (index: number) => ['/api/users/forgot-password', { email: `known-${index}@bench.example` }],
        'reset: no account': (index: number) => ['/api/users/forgot-password', { email: `nobody-${index}@bench.example` }],
        'alerts: new address': (index: number) => ['/api/alerts/subscribe', signUp(`new-${index}@bench.example`)],
        'alerts: pending': (index: number) => ['/api/alerts/subscribe', signUp(`pending-${index}@bench.example`)],
        'alerts: confirmed': (index: number) => ['/api/alerts/subscribe', signUp(`confirmed-${index}@bench.example`)],
      } satisfies Record<string, (index: number) => [string, unknown]>
      const names = Object.keys(states) as (keyof typeof states)[]
      const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<keyof typeof states, number[]>
      log(`Measuring: ${settings.warmup} + ${settings.rounds} rounds, the states interleaved; load ${describeLoadAvg()}`)
      for (let index = 0; index < perState; index++) {
        const order = names.map((_, offset) => names[(index + offset) % names.length]!)
        for (const name of order) {
          const [route, body] = states[name](index)
          const answer = await timedPost(`${baseUrl}${route}`, body)
          const expected = route.includes('alerts') || route === '/api/users' ? 202 : route.endsWith('/login') ? 401 : 200
          if (answer.status !== expected) throw new BenchError(`${name}: HTTP ${answer.status}, expected ${expected}`)
          if (index >= settings.warmup) times[name].push(answer.ms)
        }
        await sleep(5)
      }

      const rows = names.map((name) => ({ state: name, medianMs: round(median(times[name]), 2) }))
      const routeOf = (name: string) => name.split(':')[0]
      const withRatio = rows.map((row) => {
        const fastest = Math.min(...rows.filter((other) => routeOf(other.state) === routeOf(row.state)).map((other) => other.medianMs))
        const ratio = round(row.medianMs / fastest, 3)
        return { ...row, ratioToFastest: ratio, pass: ratio <= TARGET_RATIO }
      })
      console.table(withRatio)
      console.log(`Load during the run: ${describeLoadAvg()}`)
      mkdirSync(path.join('bench', 'results'), { recursive: true })
      writeFileSync(path.join('bench', 'results', 'oracles.json'), `${JSON.stringify({ at: new Date().toISOString(), rounds: settings.rounds, targetRatio: TARGET_RATIO, rows: withRatio }, null, 2)}\n`)
      if (withRatio.some((row) => !row.pass)) process.exitCode = 1
    },
  )
  await smtp.close()
}

void main()
