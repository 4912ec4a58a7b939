import type { Payload } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { analyseSqlite } from '@/db'
import { richText } from '@/seed/richText'

import { startPayload } from '../helpers/payload'

// An anonymous read of published posts must not cost more as the posts grow: before statistics,
// SQLite scanned every row of posts_locales once per post listed (bench/graphql.ts: +94 ms for
// another request on a site of 1,000 posts). Nor may one read hold every other request until it is
// done (bench/graphql.ts: a member's GraphQL read blocked the event loop ~150 ms).

type Execute = (statement: string | { sql: string; args: unknown[] }) => Promise<{ rows: { detail: string; parent: number }[] }>
let payload: Payload
let client: { execute: Execute }
const tag = `plans${process.pid}${Date.now()}`

/** The SQL statements Payload runs for `read`, as sent to SQLite. */
async function statementsOf(read: () => Promise<unknown>) {
  const statements: { sql: string; args: unknown[] }[] = []
  const execute = client.execute
  client.execute = (statement) => {
    if (typeof statement === 'object') statements.push(statement)
    return execute.call(client, statement)
  }
  try {
    await read()
  } finally {
    client.execute = execute
  }
  return statements
}

const planOf = async (statement: { sql: string; args: unknown[] }) =>
  (await client.execute({ sql: `EXPLAIN QUERY PLAN ${statement.sql}`, args: statement.args })).rows

beforeAll(async () => {
  ;({ payload } = await startPayload())
  if (payload.db.name !== 'sqlite') return
  client = (payload.db as unknown as { client: { execute: Execute } }).client
  for (let index = 0; index < 60; index++) {
    await payload.create({
      collection: 'posts',
      context: { disableRevalidate: true },
      data: { title: `Planned post ${index} ${tag}`, slug: `${tag}-${index}`, content: richText('News'), publishedAt: '2025-01-01T00:00:00.000Z', _status: 'published' },
    })
  }
})

describe('SQLite query plans for anonymous reads', () => {
  it('after ANALYZE, a page of published posts reaches each localized row by its index', async (context) => {
    if (payload.db.name !== 'sqlite') return context.skip()
    await analyseSqlite(payload)
    const anonymousRead = () => payload.find({ collection: 'posts', limit: 50, depth: 0, overrideAccess: false, sort: '-publishedAt' })
    const statements = await statementsOf(anonymousRead)
    const read = statements.find(({ sql }) => sql.startsWith('select "id"') && sql.includes('"_status" = ?'))
    expect(read, 'the posts read with the published-only access').toBeDefined()
    const plan = await planOf(read!)
    const details = plan.map(({ detail }) => detail)
    // Every per-post subquery on a localized table uses its (locale, parent) index, not a scan.
    expect(details.filter((detail) => /^SCAN \S*locales\b/.test(detail))).toEqual([])
    expect((await anonymousRead()).docs).toHaveLength(50)
  })
})

describe('SQLite reads and the event loop', () => {
  // libsql runs each statement synchronously: without a turn of the loop between statements, a
  // whole read (its list, relations, every locale) ran before any other request was looked at.
  it('lets other work run between the statements of one read', async (context) => {
    if (payload.db.name !== 'sqlite') return context.skip()
    let turns = 0
    let reading = true
    const otherWork = () => {
      if (!reading) return
      turns++
      setImmediate(otherWork)
    }
    setImmediate(otherWork)
    const statements = await statementsOf(() => payload.find({ collection: 'posts', limit: 60, depth: 2, locale: 'all', overrideAccess: false }))
    reading = false
    expect(statements.length).toBeGreaterThanOrEqual(2)
    expect(turns).toBeGreaterThanOrEqual(statements.length)
  })
})
