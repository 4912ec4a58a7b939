import { describe, expect, it } from 'vitest'

import { GRAPHQL_DOCUMENT_LIMITS } from '@/server/graphqlDocument'

import { call, expectRefusal, servers } from './http'

const repeat = (text: string, times: number, separator = ' ') => Array.from({ length: times }, () => text).join(separator)
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
]

describe.each(servers())('V13 API: GraphQL documents are measured before they are validated ($name)', (server) => {
  it.each(hostile)('refuses %s with 400 {error}', async (_name, body, message) => {
    const response = await call(server, 'anonymous', 'POST', '/api/graphql', body, { 'content-type': 'application/json' })
    expect(JSON.parse(await expectRefusal(response, 400)).error).toMatch(message)
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
