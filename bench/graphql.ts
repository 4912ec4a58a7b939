/**
 * Hostile GraphQL documents vs the event loop: each document (every one within the JSON body cap)
 * is sent by anonymous callers while another client asks GET /api/health back to back. The figure
 * is the longest the server's event loop was blocked meanwhile, measured inside the server
 * (bench/eventLoopProbe.mjs: a 5 ms timer's worst lateness, and the longest GC pause within it):
 * that is how long any other request had to wait. Beside it, how much longer the slowest health
 * answer took than without the attack (the bench client shares the host's cores, so this one is
 * noisier). Each document is sent once unrecorded first: its route's code loaded, its caches
 * filled. A document that blocks the event loop (graphql-js validation is quadratic in repeated
 * fields, and fragments that spread each other recurse without end) shows as a block that long.
 *
 * Then the costliest reads the limits still accept, GraphQL and REST, anonymous and a member’s, on a site seeded with
 * GQL_POSTS published posts (1,000, each in two categories and by the admin) and GQL_LAYERS map
 * layers (50): aliases × lists × relations × depth, every locale; the same figure.
 *
 * Target: no document or read delays another request by more than 50 ms.
 *
 * Environment: BENCH_BUILD=true rebuilds; GQL_PORT (3520), GQL_BROKER_PORT (1530), GQL_ROUNDS (8:
 * how often each document is sent, one at a time), GQL_POSTS (1000), GQL_LAYERS (50), GQL_ONLY (only
 * the documents and reads whose name contains it), GQL_PROFILE_DIR (the server writes a CPU profile
 * there, bench/cpuProfile.mjs).
 * Writes bench/results/graphql.json.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { BenchError, clientAddresses, median, round, sleep } from './lib'
import { benchOnSmallStack, type Admin, call, createLayer, seedSite, serverProcessOf, type Stack } from './stack'

const integer = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = {
  port: integer('GQL_PORT', 3520),
  brokerPort: integer('GQL_BROKER_PORT', 1530),
  rounds: integer('GQL_ROUNDS', 8),
  posts: integer('GQL_POSTS', 1000),
  layers: integer('GQL_LAYERS', 50),
  only: process.env.GQL_ONLY,
  profileDir: process.env.GQL_PROFILE_DIR,
}
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

/**
 * The costliest reads the limits still accept (all answered 200), anonymous and a member's: an
 * anonymous GraphQL operation may cost 250 (an object 1, a list its limit × its selection), a
 * member's 1,000; an anonymous REST list holds 50 documents, a member's 100.
 */
const postFields = 'id title slug publishedAt content meta { title description } categories { id title slug breadcrumbs { label url } } populatedAuthors { name }'
type Read = { path: string; body?: string; member?: boolean }
const costlyReads: Record<string, Read> = {
  'anonymous GraphQL: 40 posts with categories, every locale (cost 240)': { path: '/api/graphql', body: body(`{ Posts(limit: 40, locale: all) { docs { ${postFields} } } }`) },
  'anonymous GraphQL: 25 posts with categories and 50 layers (cost 250)': {
    path: '/api/graphql',
    body: body(`{ Posts(limit: 25, sort: "-publishedAt") { docs { ${postFields} } } MapLayers(limit: 50) { docs { id name description } } }`),
  },
  'anonymous GraphQL: a where over every post (like, or), 40 of them': {
    path: '/api/graphql',
    body: body(`{ Posts(limit: 40, where: { or: [{ title: { like: "post" } }, { slug: { contains: "9" } }, { publishedAt: { greater_than: "2020-01-01" } }] }) { totalDocs docs { ${postFields} } } }`),
  },
  'anonymous REST: posts, limit 100 (capped at 50), depth 2, every locale': { path: '/api/posts?limit=100&depth=2&locale=all' },
  'anonymous REST: posts sorted, where like, depth 2': { path: '/api/posts?limit=100&depth=2&sort=-publishedAt&where[title][like]=post' },
  'anonymous REST: pagination=false on posts (capped)': { path: '/api/posts?pagination=false&depth=2' },
  'anonymous REST: layers, depth 2': { path: '/api/map-layers?limit=100&depth=2' },
  'anonymous REST: search, depth 2': { path: '/api/search?limit=100&depth=2&where[title][like]=post' },
  'member GraphQL: 100 posts with categories and 50 layers (cost ~850)': {
    path: '/api/graphql',
    body: body(`{ Posts(limit: 100, sort: "-publishedAt") { docs { ${postFields} } } MapLayers(limit: 50) { docs { id name entityType attributes alertRules { attribute value message } } } }`),
    member: true,
  },
  'member REST: 100 posts, depth 3, every locale': { path: '/api/posts?limit=100&depth=3&locale=all', member: true },
}

const paragraph = (text: string) => ({
  root: { type: 'root', version: 1, direction: null, format: '', indent: 0, children: [{ type: 'paragraph', version: 1, direction: null, format: '', indent: 0, children: [{ type: 'text', version: 1, text, detail: 0, format: 0, mode: 'normal', style: '' }] }] },
})

/** GQL_POSTS published posts in a few categories, GQL_LAYERS map layers: a city's site after some years. */
async function seedContent(baseUrl: string, admin: Admin) {
  const categories: (string | number)[] = []
  for (const title of ['Mobility', 'Air', 'Water', 'Energy', 'Events']) {
    categories.push((await call<{ doc: { id: string | number } }>(baseUrl, 'POST', '/api/categories', { title, slug: title.toLowerCase() }, admin.token)).doc.id)
  }
  let next = 0
  const worker = async () => {
    for (let index = next++; index < settings.posts; index = next++) {
      await call(baseUrl, 'POST', '/api/posts', {
        title: `City post ${index}: works on line ${index % 40}`,
        slug: `city-post-${index}`,
        _status: 'published',
        publishedAt: new Date(Date.UTC(2024, 0, 1) + index * 86_400_000).toISOString(),
        content: paragraph(`Post ${index} tells citizens what changes on line ${index % 40} and when. `.repeat(8)),
        categories: [categories[index % 5], categories[(index + 1) % 5]],
        meta: { title: `City post ${index}`, description: `What changes on line ${index % 40}` },
      }, admin.token)
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  for (let index = 0; index < settings.layers; index++) {
    await createLayer(baseUrl, admin, { name: `Layer ${index}`, entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'pm10'], maxFeatures: 1000 })
  }
}

type Sample = { ms: number; status: number }

async function timed(url: string, init?: RequestInit): Promise<Sample> {
  const started = performance.now()
  const response = await fetch(url, init)
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

type LoopReport = { maxMs: number; p99Ms: number; gcPauses: number; gcLongestMs: number; gcTotalMs: number }

/** What the server's own event loop saw since the last call (bench/eventLoopProbe.mjs writes it on SIGUSR2). */
async function serverLoop(stack: Stack, file: string): Promise<LoopReport> {
  rmSync(file, { force: true })
  process.kill(serverProcessOf(stack).pid, 'SIGUSR2')
  for (let waited = 0; !existsSync(file); waited += 10) {
    if (waited > 5_000) throw new BenchError('the server did not report its event loop (bench/eventLoopProbe.mjs)')
    await sleep(10)
  }
  return JSON.parse(readFileSync(file, 'utf8')) as LoopReport
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
  const loopFile = path.join(os.tmpdir(), `citydash-bench-loop-${process.pid}.json`)
  await benchOnSmallStack(
    {
      name: 'graphql',
      port: [settings.port, 'GQL_PORT'],
      brokerPort: [settings.brokerPort, 'GQL_BROKER_PORT'],
      serverEnv: {
        NODE_OPTIONS: [process.env.NODE_OPTIONS, ...['eventLoopProbe.mjs', ...(settings.profileDir ? ['cpuProfile.mjs'] : [])].map((file) => `--import ${path.join(import.meta.dirname, file)}`)]
          .filter(Boolean)
          .join(' '),
        BENCH_LOOP_FILE: loopFile,
        ...(settings.profileDir && { BENCH_PROFILE_DIR: path.resolve(settings.profileDir) }),
      },
      log,
    },
    async (stack) => {
      const admin = await seedSite(stack.baseUrl)
      log(`Seeding ${settings.posts} published posts and ${settings.layers} layers`)
      await seedContent(stack.baseUrl, admin)
      const graphql = (requestBody: string) =>
        timed(`${stack.baseUrl}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', origin: stack.baseUrl }, body: requestBody })

      // Warm: the GraphQL schema is built on the first request, the health route loaded.
      await graphql(body('{ Users { totalDocs } }'))
      let quietUntil = performance.now() + 3_000
      const quiet = await probeHealth(stack.baseUrl, () => performance.now() > quietUntil)
      await serverLoop(stack, loopFile)
      quietUntil = performance.now() + 3_000
      const baseline = Math.max(...(await probeHealth(stack.baseUrl, () => performance.now() > quietUntil)))
      const quietLoop = await serverLoop(stack, loopFile)
      log(`without attack: health median ${round(median(quiet))} ms, slowest ${round(baseline)} ms; the server's event loop blocked at most ${quietLoop.maxMs} ms`)

      const rows = []
      const requests: [string, Read][] = [...Object.entries(documents).map(([name, text]) => [name, { path: '/api/graphql', body: text }] as [string, Read]), ...Object.entries(costlyReads)].filter(
        ([name]) => !settings.only || name.includes(settings.only),
      )
      const nextClient = clientAddresses()
      for (const [name, { path: route, body, member }] of requests) {
        if (body && Buffer.byteLength(body) > BODY_CAP) throw new BenchError(`${name}: ${Buffer.byteLength(body)} bytes is over the body cap`)
        // Each request from its own client address (TRUST_PROXY): the figure is the work, not the per-client read budget.
        const send = () => {
          const headers = {
            'content-type': 'application/json',
            origin: stack.baseUrl,
            'x-forwarded-for': nextClient(),
            ...(member && { authorization: `JWT ${admin.token}` }),
          }
          return body ? timed(`${stack.baseUrl}${route}`, { method: 'POST', headers, body }) : timed(`${stack.baseUrl}${route}`, { headers })
        }
        // Once unrecorded: the first request of a kind loads code and fills caches that every later one finds ready.
        await send()
        await serverLoop(stack, loopFile)
        let attacking = true
        const probe = probeHealth(stack.baseUrl, () => !attacking)
        const answers: Sample[] = []
        // One at a time: the figure is what one document costs everyone else, not a queue of several.
        for (let round = 0; round < settings.rounds; round++) answers.push(await send())
        await sleep(50)
        attacking = false
        const health = await probe
        const loop = await serverLoop(stack, loopFile)
        const row = {
          document: name,
          bytes: body ? Buffer.byteLength(body) : 0,
          statuses: [...new Set(answers.map((answer) => answer.status))].join(','),
          answerMedianMs: round(median(answers.map((answer) => answer.ms))),
          blockedMs: loop.maxMs,
          gcLongestMs: loop.gcLongestMs,
          healthSlowestMs: round(Math.max(...health)),
          healthDelayMs: round(Math.max(0, Math.max(...health) - baseline)),
        }
        // A costly read the limits accept must be answered (200); a hostile document refused (4xx).
        const answered = name in costlyReads ? row.statuses === '200' : !/5\d\d/.test(row.statuses)
        rows.push({ ...row, pass: row.blockedMs <= TARGET_MS && answered })
        log(
          `${name}: ${row.bytes} B → HTTP ${row.statuses} in ${row.answerMedianMs} ms; event loop blocked at most ${row.blockedMs} ms (longest GC pause ${row.gcLongestMs} ms); slowest health ${row.healthSlowestMs} ms (+${row.healthDelayMs} ms)`,
        )
      }
      const worst = rows.reduce((a, b) => (b.blockedMs > a.blockedMs ? b : a))
      console.log(`\nWorst document or read: ${worst.document}: the server's event loop was blocked up to ${worst.blockedMs} ms (target ≤ ${TARGET_MS} ms; ${quietLoop.maxMs} ms without attack).`)
      console.table(rows)
      mkdirSync(path.join('bench', 'results'), { recursive: true })
      writeFileSync(
        path.join('bench', 'results', 'graphql.json'),
        `${JSON.stringify({ at: new Date().toISOString(), baselineSlowestHealthMs: round(baseline), quietBlockedMs: quietLoop.maxMs, targetMs: TARGET_MS, rows }, null, 2)}\n`,
      )
      if (rows.some((row) => !row.pass)) process.exitCode = 1
    },
  )
}

void main()
