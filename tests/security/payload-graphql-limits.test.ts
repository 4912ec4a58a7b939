import { describe, expect, it } from 'vitest'

import { GRAPHQL_DOCUMENT_LIMITS } from '@/http/graphqlDocument'

import { call, expectRefusal, servers } from './http'

const repeat = (text: string, times: number, separator = ' ') => Array.from({ length: times }, () => text).join(separator)
const WHERE_QUERY = 'query ($where: User_where) { Users(where: $where) { totalDocs } }'

/** Documents that graphql-js's validation could not handle in linear time, each within the 1 MB body cap. */
const hostile: [string, string, RegExp][] = [
  ['one field 30,000 times (the 22-second document)', JSON.stringify({ query: `{ Users { docs { ${repeat('id', 30_000)} } } }` }), /tokens/],
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
  ['nesting 100,000 deep', JSON.stringify({ query: `${repeat('{ a', 100_000, '')}${repeat('}', 100_000, '')}` }), /tokens|nesting/],
  ['directives 51 times', JSON.stringify({ query: `{ Users { totalDocs ${repeat('@include(if: true)', 51)} } }` }), /directives/],
  ['six operations', JSON.stringify({ query: Array.from({ length: 6 }, (_, i) => `query Q${i} { Users { totalDocs } }`).join(' ') }), /operations/],
  ['a document that does not parse', JSON.stringify({ query: '{ Users { docs { id ' }), /does not parse/],
]

describe.each(servers())('V13 API: GraphQL documents are measured before they are validated ($name)', (server) => {
  it.each(hostile)('refuses %s with 400 {error}', async (_name, body, message) => {
    const response = await call(server, 'anonymous', 'POST', '/api/graphql', body, { 'content-type': 'application/json' })
    expect(JSON.parse(await expectRefusal(response, 400)).error).toMatch(message)
  })

  it('refuses a variables object nested 100,000 deep without a 500', async () => {
    const body = `{"query":${JSON.stringify(WHERE_QUERY)},"variables":{"where":${repeat('{"and":[', 100_000, '')}{}${repeat(']}', 100_000, '')}}}`
    const response = await call(server, 'anonymous', 'POST', '/api/graphql', body, { 'content-type': 'application/json' })
    expect(response.status).toBeLessThan(500)
    await response.text()
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
