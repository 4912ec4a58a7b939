/**
 * Hostile GraphQL documents vs the event loop: each document (every one within the JSON body cap)
 * is sent by anonymous callers while another client asks GET /api/health back to back; the figure
 * is how much longer the slowest health answer took than the slowest one without the attack. A
 * document that blocks the event loop (graphql-js validation is quadratic in repeated fields, and
 * fragments that spread each other recurse without end) shows as a health answer that long.
 *
 * Target: no document delays another request by more than 50 ms.
 *
 * Environment: BENCH_BUILD=true rebuilds; GQL_PORT (3520), GQL_BROKER_PORT (1530), GQL_ROUNDS (8:
 * how often each document is sent, one at a time). Writes bench/results/graphql.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { assertPortFree, BenchError, median, round, sleep } from './lib'
import { seedSite, startStack, stopAll } from './stack'

const integer = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = { port: integer('GQL_PORT', 3520), brokerPort: integer('GQL_BROKER_PORT', 1530), rounds: integer('GQL_ROUNDS', 8) }
const BODY_CAP = 1024 * 1024
const TARGET_MS = 50
const log = (message: string) => console.log(`• ${message}`)

const repeat = (text: string, times: number, separator = ' ') => Array.from({ length: times }, () => text).join(separator)
/** As many copies of `unit` as fit in the body cap between `head` and `tail`. */
const fill = (head: string, unit: string, tail: string) => {
  const room = BODY_CAP - 200 - head.length - tail.length
  return `${head}${repeat(unit, Math.floor(room / (unit.length + 1)))}${tail}`
}
const names = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i.toString(36).padStart(6, 'q')}`)
/** Distinct units (`unit(i)`) as many as fit in the body cap between `head` and `tail`. */
const fillDistinct = (head: string, unit: (i: number) => string, tail: string) => {
  const parts: string[] = []
  let size = head.length + tail.length + 200
  for (let i = 0; size < BODY_CAP - 100; i++) {
    const part = unit(i)
    size += part.length + 1
    if (size < BODY_CAP - 100) parts.push(part)
  }
  return `${head}${parts.join(' ')}${tail}`
}
const body = (query: string, variables?: unknown) => JSON.stringify({ query, variables })
const WHERE_QUERY = 'query ($where: User_where) { Users(where: $where) { totalDocs } }'

/** The request bodies: what the issue found, what its fixes must also stop, and the heaviest documents the limits still accept. */
const documents: Record<string, string> = {
  'one field 30,000 times (90 kB, the issue’s example)': body(`{ Users { docs { ${repeat('id', 30_000)} } } }`),
  'one field repeated to the body cap': body(fill('{ Users { docs { ', 'id', ' } } }')),
  'distinct aliases to the body cap': body(fillDistinct('{ ', (i) => `a${i}: Users { totalDocs }`, ' }')),
  'distinct fields to the body cap': body(fillDistinct('{ Users { docs { ', (i) => `f${i}`, ' } } }')),
  'fragments that spread each other': body('{ Users { docs { ...A } } } fragment A on User { id ...B } fragment B on User { email ...A }'),
  'a fragment spread 2^20 times': body(
    `{ Users { docs { ...F0 } } }\n${Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`).join('\n')}\nfragment F20 on User { id }`,
  ),
  'nesting to the body cap': body(`${repeat('{ a', 150_000, '')}${repeat('}', 150_000, '')}`),
  'directives to the body cap': body(fill('{ Users { totalDocs ', '@include(if: true)', ' } }')),
  'a comment to the body cap': body(`# ${'x'.repeat(BODY_CAP - 200)}\n{ Users { totalDocs } }`),
  'a string argument to the body cap': body(`{ Users(where: { email: { equals: "${'x'.repeat(BODY_CAP - 200)}" } }) { totalDocs } }`),
  // Written by hand: JSON.stringify would overflow the stack on this nesting.
  'variables nested to the body cap': `{"query":${JSON.stringify(WHERE_QUERY)},"variables":{"where":${repeat('{"and":[', 100_000, '')}{}${repeat(']}', 100_000, '')}}}`,
  'variables with a 30,000-way or': body(WHERE_QUERY, { where: { or: Array.from({ length: 30_000 }, (_, i) => ({ email: { equals: `x${i}` } })) } }),
  // The heaviest documents the limits accept: every field counted, one name as often as allowed.
  'accepted: 480 fields, 20 copies of each name': body(`{ Users { docs { ${Array.from({ length: 24 }, (_, i) => repeat(`n${i}: email`, 20)).join(' ')} } } }`),
  'accepted: 499 unknown fields (suggestions for each)': body(`{ Users { docs { ${names(499, 'unknownFieldNamedLikeARealOne').join(' ')} } } }`),
  'accepted: a 49 kB comment': body(`# ${'x'.repeat(49_900)}\n{ Users { totalDocs } }`),
  'accepted: a 49 kB string argument': body(`{ Users(where: { email: { equals: "${'x'.repeat(49_900)}" } }) { totalDocs } }`),
  'accepted: variables with 8,900 values 30 deep': body(WHERE_QUERY, {
    where: { and: [JSON.parse(`${'{"and":['.repeat(12)}{"email":{"in":[${Array.from({ length: 8_900 }, (_, i) => `"x${i}"`).join(',')}]}}${']}'.repeat(12)}`)] },
  }),
  'accepted: 15 levels, 30 fragments': body(
    `{ Users { docs { ...F0 } } } ${Array.from({ length: 29 }, (_, i) => `fragment F${i} on User { id email ...F${i + 1} }`).join(' ')} fragment F29 on User { id }`,
  ),
}

type Sample = { ms: number; status: number }

async function timed(url: string, init?: RequestInit): Promise<Sample> {
  const started = performance.now()
  const response = await fetch(url, init)
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

/** GET /api/health back to back until `done()` says stop; every answer's time. */
async function probeHealth(baseUrl: string, done: () => boolean): Promise<number[]> {
  const times: number[] = []
  while (!done()) {
    times.push((await timed(`${baseUrl}/api/health`)).ms)
    await sleep(2)
  }
  return times
}

async function main() {
  await assertPortFree(settings.port, 'GQL_PORT')
  await assertPortFree(settings.brokerPort, 'GQL_BROKER_PORT')
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-bench-graphql-'))
  try {
    const stack = await startStack({
      port: settings.port,
      brokerPort: settings.brokerPort,
      entities: 100,
      flavor: 'orion-ld',
      forceBuild: process.env.BENCH_BUILD === 'true',
      workDir,
      log,
    })
    await seedSite(stack.baseUrl)
    const graphql = (requestBody: string) =>
      timed(`${stack.baseUrl}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', origin: stack.baseUrl }, body: requestBody })

    // Warm: the GraphQL schema is built on the first request, the health route loaded.
    await graphql(body('{ Users { totalDocs } }'))
    let quietUntil = performance.now() + 3_000
    const quiet = await probeHealth(stack.baseUrl, () => performance.now() > quietUntil)
    quietUntil = performance.now() + 3_000
    const baseline = Math.max(...(await probeHealth(stack.baseUrl, () => performance.now() > quietUntil)))
    log(`health without attack: median ${round(median(quiet))} ms, slowest ${round(baseline)} ms`)

    const rows = []
    for (const [name, body] of Object.entries(documents)) {
      if (Buffer.byteLength(body) > BODY_CAP) throw new BenchError(`${name}: ${Buffer.byteLength(body)} bytes is over the body cap`)
      let attacking = true
      const probe = probeHealth(stack.baseUrl, () => !attacking)
      const answers: Sample[] = []
      // One at a time: the figure is what one document costs everyone else, not a queue of several.
      for (let round = 0; round < settings.rounds; round++) answers.push(await graphql(body))
      await sleep(50)
      attacking = false
      const health = await probe
      const row = {
        document: name,
        bytes: Buffer.byteLength(body),
        statuses: [...new Set(answers.map((answer) => answer.status))].join(','),
        answerMedianMs: round(median(answers.map((answer) => answer.ms))),
        healthSlowestMs: round(Math.max(...health)),
        delayMs: round(Math.max(0, Math.max(...health) - baseline)),
      }
      rows.push({ ...row, pass: row.delayMs <= TARGET_MS && !/5\d\d/.test(row.statuses) })
      log(`${name}: ${row.bytes} B → HTTP ${row.statuses} in ${row.answerMedianMs} ms; slowest health ${row.healthSlowestMs} ms (+${row.delayMs} ms)`)
    }
    const worst = rows.reduce((a, b) => (b.delayMs > a.delayMs ? b : a))
    console.log(`\nWorst document: ${worst.document}: another request waited ${worst.delayMs} ms longer than without it (target ≤ ${TARGET_MS} ms).`)
    console.table(rows)
    mkdirSync(path.join('bench', 'results'), { recursive: true })
    writeFileSync(
      path.join('bench', 'results', 'graphql.json'),
      `${JSON.stringify({ at: new Date().toISOString(), baselineSlowestHealthMs: round(baseline), targetMs: TARGET_MS, rows }, null, 2)}\n`,
    )
    if (rows.some((row) => !row.pass)) process.exitCode = 1
  } finally {
    await stopAll()
    rmSync(workDir, { recursive: true, force: true })
  }
}

main().catch(async (error: unknown) => {
  console.error(error instanceof BenchError ? `✖ ${error.message}` : error)
  await stopAll()
  process.exit(1)
})
