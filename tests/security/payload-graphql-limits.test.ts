import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { beforeAll, describe, expect, inject, it } from 'vitest'

import { GRAPHQL_DOCUMENT_LIMITS } from '@/server/graphqlDocument'

import { call, expectRefusal, servers } from './http'
import { type AppServer, startAppServer } from './servers'

const repeat = (text: string, times: number, separator = ' ') => Array.from({ length: times }, () => text).join(separator)
const aliased = (count: number, field: (index: number) => string) => Array.from({ length: count }, (_, i) => `a${i}: ${field(i)}`).join(' ')
const WHERE_QUERY = 'query ($where: User_where) { Users(where: $where) { totalDocs } }'

/** Documents that graphql-js's validation could not handle in linear time, each within the 1 MB body cap. */
const hostile: [string, string, RegExp][] = [
  ['one field 30,000 times (the 22-second document)', JSON.stringify({ query: `{ Users { docs { ${repeat('id', 30_000)} } } }` }), /characters/],
  ['6,000 short tokens', JSON.stringify({ query: `{ Users { docs { ${repeat('a', 6_000)} } } }` }), /tokens/],
  ['a comment of 900 kB', JSON.stringify({ query: `# ${'x'.repeat(900_000)}\n{ Users { totalDocs } }` }), /characters/],
  ['a string argument of 900 kB', JSON.stringify({ query: `{ Users(where: { email: { equals: "${'x'.repeat(900_000)}" } }) { totalDocs } }` }), /characters/],
  ['variables nested 100,000 deep', `{"query":${JSON.stringify(WHERE_QUERY)},"variables":{"where":${repeat('{"and":[', 100_000, '')}{}${repeat(']}', 100_000, '')}}}`, /nest deeper/],
  ['variables with a 20,000-way or', JSON.stringify({ query: WHERE_QUERY, variables: { where: { or: Array.from({ length: 20_000 }, (_, i) => ({ email: { equals: `x${i}` } })) } } }), /values/],
  ['one field 21 times in one selection', JSON.stringify({ query: `{ Users { docs { ${repeat('id', GRAPHQL_DOCUMENT_LIMITS.sameNameFields + 1)} } } }` }), /copies of "id"/],
  ['one aliased field 21 times', JSON.stringify({ query: `{ Users { docs { ${repeat('x: id', 21)} } } }` }), /copies of "x"/],
  ['fragments that spread each other (the 500 stack overflow)', JSON.stringify({ query: '{ Users { docs { ...A } } } fragment A on User { id ...B } fragment B on User { email ...A }' }), /spreads itself/],
  ['a fragment that spreads itself', JSON.stringify({ query: '{ Users { docs { ...A } } } fragment A on User { id ...A }' }), /spreads itself/],
  [
    'a fragment spread 2^20 times',
    JSON.stringify({
      query: `{ Users { docs { ...F0 } } } ${Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F20 on User { id }`,
    }),
    /fields/,
  ],
  ['31 aliases', JSON.stringify({ query: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: Users { totalDocs }`).join(' ')} }` }), /aliases/],
  ['nesting 100,000 deep', JSON.stringify({ query: `${repeat('{ a', 100_000, '')}${repeat('}', 100_000, '')}` }), /characters/],
  ['nesting 16 deep', JSON.stringify({ query: `${repeat('{ a', 16, '')}${repeat('}', 16, '')}` }), /nesting/],
  ['directives 51 times', JSON.stringify({ query: `{ Users { totalDocs ${repeat('@include(if: true)', 51)} } }` }), /directives/],
  ['six operations', JSON.stringify({ query: Array.from({ length: 6 }, (_, i) => `query Q${i} { Users { totalDocs } }`).join(' ') }), /operations/],
  ['a document that does not parse', JSON.stringify({ query: '{ Users { docs { id ' }), /does not parse/],
  // What a query asks the server to do, not how big it is (issue "Safe round 3", defect 1).
  ['30 aliases of 100 posts (the 11-second request)', JSON.stringify({ query: `{ ${aliased(30, () => 'Posts(limit: 100) { docs { id } }')} }` }), /documents/],
  [
    '20 aliases of "no limit" (0) and of pagination: false',
    JSON.stringify({ query: `{ ${aliased(20, (i) => `Posts(${i % 2 ? 'limit: 0' : 'pagination: false'}) { docs { id } }`)} }` }),
    /documents/,
  ],
  ['the limit in a variable', JSON.stringify({ query: `query ($n: Int) { ${aliased(12, () => 'Posts(limit: $n) { docs { id } }')} }`, variables: { n: 100 } }), /documents/],
  [
    'relations inside a list, through a fragment',
    JSON.stringify({ query: `{ Categories(limit: 100) { docs { ...P } } } fragment P on Category { ${aliased(12, () => 'parent { id }')} }` }),
    /documents/,
  ],
]

describe.each(servers())('V13 API: GraphQL documents are measured before they are validated ($name)', (server) => {
  it.each(hostile)('refuses %s with 400 {error}', async (_name, body, message) => {
    const response = await call(server, 'anonymous', 'POST', '/api/graphql', body, { 'content-type': 'application/json' })
    expect(JSON.parse(await expectRefusal(response, 400)).error).toMatch(message)
  })

  it('lets an anonymous query cost a quarter of what a member’s may (250 against 1,000)', async () => {
    const twoLists = JSON.stringify({ query: '{ a: Posts(limit: 100) { docs { id } } b: Posts(limit: 100) { docs { id } } }' })
    const anonymous = await call(server, 'anonymous', 'POST', '/api/graphql', twoLists, { 'content-type': 'application/json' })
    expect(JSON.parse(await expectRefusal(anonymous, 400)).error).toMatch(/more than 250 documents/)
    // Credentials that are no session are anonymous too.
    const forged = await call(server, 'anonymous', 'POST', '/api/graphql', twoLists, { 'content-type': 'application/json', authorization: 'JWT not-a-token' })
    expect(JSON.parse(await expectRefusal(forged, 400)).error).toMatch(/more than 250 documents/)
    const member = await call(server, 'viewer', 'POST', '/api/graphql', twoLists, { 'content-type': 'application/json' })
    expect(member.status, await member.clone().text()).toBe(200)
  })

  it('still answers the queries scripts send, fragments and variables included', async () => {
    const query = 'query Pages($limit: Int) { Pages(limit: $limit) { totalDocs docs { ...PageFields } } } fragment PageFields on Page { id title slug }'
    const response = await call(server, 'anonymous', 'POST', '/api/graphql', { query, variables: { limit: 5 } })
    const text = await response.text()
    expect(response.status, text).toBe(200)
    expect(JSON.parse(text)).toMatchObject({ data: { Pages: { totalDocs: expect.any(Number) } } })
  })

  it('keeps the server answering other requests while the worst documents are refused', async () => {
    const worst = hostile.map(([, body]) => body)
    const attacks = Promise.all(worst.flatMap((body) => [1, 2].map(() => call(server, 'anonymous', 'POST', '/api/graphql', body, { 'content-type': 'application/json' }).then((r) => r.status))))
    const health = await call(server, 'anonymous', 'GET', '/api/health')
    expect(health.status).toBe(200)
    expect((await attacks).every((status) => status === 400)).toBe(true)
  })
})

// Costly work per client, on a server with the default budgets behind a trusted proxy (each case
// speaks as its own clients): the API reads of one client share a budget counted in documents
// (API_READ_BUDGET, 2,000 per 10 s), so many cheap-looking requests cannot add up to a hostile one;
// the image optimizer takes 120 images per 10 s.
describe('V11 Business logic: per-client budgets of costly work (own server, default budgets)', () => {
  let server: AppServer
  beforeAll(async () => {
    const file = path.join(os.tmpdir(), `citydash-sec-budget-${process.pid}-${Date.now()}.db`)
    server = await startAppServer({ databaseUri: `file:${file}`, brokerUrl: inject('securityBrokerUrl'), env: { TRUST_PROXY: 'true', API_READ_BUDGET: '' } })
    return () => (server.stop(), rmSync(file, { force: true }))
  }, 600_000)
  const from = (client: string, route: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${route}`, { ...init, headers: { 'x-forwarded-for': client, 'content-type': 'application/json', ...init.headers } })
  const gql = (client: string, query: string) => from(client, '/api/graphql', { method: 'POST', body: JSON.stringify({ query }) })
  const LIST_OF_400 = '/api/posts?limit=100&depth=3'

  it('refuses REST lists of 100 at depth 3 (400 each) past 2,000 documents with 429 {error} and Retry-After; another client is served', async () => {
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.10', LIST_OF_400)).status).toBe(200)
    const refused = await from('203.0.113.10', LIST_OF_400)
    expect(JSON.parse(await expectRefusal(refused, 429)).error).toMatch(/Too many requests/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await from('203.0.113.11', '/api/posts?limit=1&depth=0')).status).toBe(200)
  })

  it('counts GraphQL by what it lists: 250 cheap queries pass, twelve lists of 100 posts of one client do not', async () => {
    for (let i = 0; i < 250; i++) expect((await gql('203.0.113.20', '{ Posts(limit: 1) { totalDocs } }')).status).toBe(200)
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await gql('203.0.113.21', '{ Posts(limit: 100) { docs { id } } }')).status)
    // 200 each: ten fit in 2,000.
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429])
  })

  it('shares one budget between REST and GraphQL, and never counts media files', async () => {
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.30', LIST_OF_400)).status).toBe(200)
    await expectRefusal(await gql('203.0.113.30', '{ Posts(limit: 100) { docs { id } } }'), 429)
    for (let i = 0; i < 30; i++) expect((await from('203.0.113.31', '/api/media/file/none.png')).status).not.toBe(429)
  })

  it('holds a client to 120 optimized images per 10 s (429 {error} with Retry-After); another client is served', async () => {
    const image = (client: string, width: number) => from(client, `/_next/image?url=${encodeURIComponent('/api/media/file/none.png')}&w=${width}&q=75`)
    const widths = [640, 750, 828, 1080, 1200, 1920]
    const statuses = await Promise.all(Array.from({ length: 120 }, (_, i) => image('203.0.113.40', widths[i % widths.length]!).then((answer) => answer.status)))
    expect(statuses).not.toContain(429)
    const refused = await image('203.0.113.40', 640)
    expect(JSON.parse(await expectRefusal(refused, 429)).error).toMatch(/Too many requests/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await image('203.0.113.41', 640)).status).not.toBe(429)
  })
})
