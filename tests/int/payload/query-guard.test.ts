import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { richText } from '@/seed/richText'

import { authHeaders } from '../../helpers/accounts'
import { MALFORMED_GRAPHQL_WHERE, NOT_A_DATE_GRAPHQL } from '../../helpers/hostileInput'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

let app: PayloadApi
const tag = `guard${process.pid}${Date.now()}`
const fixture = { category: 0 as number | string, post: 0 as number | string, page: 0 as number | string, postTitle: `Guarded post ${tag}`, categoryTitle: `Guarded category ${tag}` }

beforeAll(async () => {
  app = await startPayloadApi({ roles: ['admin'] })
  const category = await app.payload.create({ collection: 'categories', data: { title: fixture.categoryTitle, slug: `cat-${tag}` } })
  const post = await app.payload.create({
    collection: 'posts',
    data: { title: fixture.postTitle, slug: `post-${tag}`, content: richText('News'), categories: [category.id], publishedAt: '2025-01-01T00:00:00.000Z', _status: 'published' },
  })
  const page = await app.payload.create({
    collection: 'pages',
    data: { title: `Guarded page ${tag}`, slug: `page-${tag}`, _status: 'published', layout: [{ blockType: 'content', columns: [{ width: 'full', richText: richText('Hello') }] }] },
  })
  Object.assign(fixture, { category: category.id, post: post.id, page: page.id })
})

afterAll(async () => {
  vi.restoreAllMocks()
  await app?.close()
})

type Caller = 'anonymous' | 'admin'
/** JSON bodies are serialised; text and forms go as they are. */
function request(caller: Caller, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const isJson = body !== undefined && typeof body !== 'string' && !(body instanceof FormData)
  return fetch(`${app.baseUrl}${route}`, {
    method,
    headers: { ...authHeaders(caller === 'admin' ? app.tokens.admin : null), ...(isJson ? { 'content-type': 'application/json' } : {}), ...headers },
    body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
  })
}

async function expectRefused(response: Response, status = 400) {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  const message = (JSON.parse(text) as { errors: { message: string }[] }).errors[0].message
  expect(message).not.toMatch(/Something went wrong/)
  return message
}

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await request('admin', 'POST', '/api/graphql', { query, variables })
  return (await response.json()) as { data?: Record<string, { docs?: { id: number | string }[]; totalDocs?: number } | null>; errors?: { message: string; extensions?: { statusCode?: number } }[] }
}

const ids = async (response: Response) => {
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return (JSON.parse(text) as { docs: { id: number | string }[] }).docs.map(({ id }) => id)
}

describe('malformed queries are refused with 400 and a message, never a 500', () => {
  it.each([
    // in / not_in / all lists of objects, nested lists, empty strings and words where ids belong
    ['anonymous', '/api/pages?where[id][in][0][a]=1', /where\.id\.in: .* is not an id/],
    ['anonymous', '/api/pages?where[id][in][0][0]=1', /where\.id\.in: .* is not an id/],
    ['anonymous', '/api/pages?where[id][in]=', /where\.id\.in: "" is not an id/],
    ['anonymous', '/api/pages?where[id][not_in]=1,a', /where\.id\.not_in: "a" is not an id/],
    ['anonymous', '/api/posts?where[categories][in][0][x]=1', /where\.categories\.in: .* is not an id/],
    ['anonymous', '/api/posts?where[categories][in]=abc', /where\.categories\.in: "abc" is not an id/],
    ['anonymous', '/api/posts?where[categories][all]=1,2', /"all" is not supported by this database/],
    // dates
    ['anonymous', '/api/pages?where[createdAt][greater_than]=notadate', /where\.createdAt\.greater_than: "notadate" is not a date/],
    ['anonymous', '/api/pages?where[updatedAt][less_than_equal][a]=1', /where\.updatedAt\.less_than_equal: .* is not a date/],
    ['anonymous', '/api/posts?where[publishedAt][equals]=0000-01-01', /is not a date/],
    // geo operators on fields that are not points
    ['anonymous', '/api/pages?where[title][near]=1,2', /"near" does not apply to a text field/],
    ['anonymous', '/api/posts?where[title][within][type]=Point&where[title][within][coordinates][0]=1', /"within" does not apply/],
    ['anonymous', '/api/media?where[width][intersects][type]=Point', /"intersects" does not apply to a number field/],
    // a where that is text, a list, or conditions that are not {operator: value}
    ['anonymous', '/api/pages?where=abc', /where: neither JSON/],
    ['anonymous', '/api/pages?where[]=abc', /where: a query is/],
    ['anonymous', '/api/pages?where[0]=abc', /where: a query is/],
    ['anonymous', '/api/pages?where[title]=abc', /where\.title: conditions are/],
    ['anonymous', '/api/pages?where[or]=abc', /where\.or: a list of queries/],
    ['anonymous', '/api/pages?data=abc', /data: neither JSON/],
    // unknown operators, objects where a value belongs
    ['anonymous', '/api/media?where[alt][bogus]=1', /"bogus" does not apply/],
    ['anonymous', '/api/pages?where[title][equals][a]=1', /where\.title\.equals: .* is not a text/],
    ['anonymous', '/api/media?where[width][greater_than][x]=1', /is not a number/],
    ['anonymous', '/api/media?where[filename][like][x]=1', /where\.filename\.like: .* is not a text/],
    ['admin', '/api/map-layers?where[public][equals][x]=1', /is not true or false/],
    ['admin', '/api/users?where[email][equals][a]=1', /where\.email\.equals/],
    ['admin', '/api/users?where[role][equals]=superuser', /"superuser" is not one of admin, editor, viewer/],
    ['anonymous', '/api/posts?where[title][exists]=maybe', /is not true or false/],
    // fields and paths the database adapters cannot query
    ['anonymous', '/api/search?where[doc][equals]=1', /relationTo/],
    ['anonymous', '/api/search?where[doc][exists]=true', /"exists" does not apply to a relationship to several collections/],
    ['anonymous', '/api/pages?where[layout.blockType][in]=content', /"in" does not apply to a block type/],
    ['anonymous', '/api/pages?where[layout.links.link.reference.value][equals]=1', /not supported inside a list/],
    ['anonymous', '/api/search?where[doc.value][in]=1', /"1" is not a list/],
    ['anonymous', '/api/posts?where[categories][like]=1', /"like" does not apply to a relationship field/],
    ['anonymous', '/api/pages?where[id][equals]=2147483648', /is not an id/],
    // NUL bytes
    ['anonymous', '/api/posts?where[title][equals]=a%00b', /NUL/],
    ['anonymous', '/api/categories?where[slug][in]=a,%00', /NUL/],
    // other operations: count, versions
    ['anonymous', '/api/pages/count?where[createdAt][greater_than]=notadate', /is not a date/],
    ['admin', '/api/pages/versions?where[parent][in]=abc', /where\.parent\.in: "abc" is not an id/],
    ['admin', '/api/pages/versions?where[version.layout.blockType][equals]=nope', /is not one of/],
    // limit and page junk
    ['anonymous', '/api/pages?limit=abc', /limit/],
    ['anonymous', '/api/pages?page[x]=1', /page/],
  ] as const)('%s GET %s', async (caller, route, message) => {
    expect(await expectRefused(await request(caller, 'GET', route))).toMatch(message)
  })

  it('refuses a list of more than 1,000 values', async () => {
    expect(await expectRefused(await request('anonymous', 'GET', `/api/pages?where[id][in]=${'1,'.repeat(1000)}1`))).toMatch(/at most 1000 values/)
  })

  it('answers an id past the id column (a 4-byte integer on PostgreSQL) with 404', async () => {
    expect((await request('anonymous', 'GET', '/api/pages/2147483648')).status).toBe(404)
  })

  it('refuses malformed bulk updates and deletes and changes nothing', async () => {
    const before = await app.payload.findByID({ collection: 'categories', id: fixture.category })
    for (const route of ['/api/categories?where[createdAt][greater_than]=notadate', '/api/categories?where[id][in][0][a]=1', '/api/categories?where=abc']) {
      await expectRefused(await request('admin', 'PATCH', route, { title: 'Bulk changed' }))
      await expectRefused(await request('admin', 'DELETE', route))
    }
    expect(await app.payload.findByID({ collection: 'categories', id: fixture.category })).toMatchObject({ title: before.title })
  })

  it('refuses a NUL character in a body (PostgreSQL cannot store it) and stores nothing', async () => {
    const slug = `nul-${tag}`
    expect(await expectRefused(await request('admin', 'POST', '/api/categories', { title: 'a\u0000b', slug }))).toMatch(/NUL/)
    expect(await expectRefused(await request('anonymous', 'POST', '/api/users/login', { email: 'a\u0000@example.org', password: 'whatever-it-is' }))).toMatch(/NUL/)
    expect((await app.payload.count({ collection: 'categories', where: { slug: { equals: slug } } })).totalDocs).toBe(0)
  })

  it('refuses a multipart body it cannot read on any collection', async () => {
    const message = await expectRefused(await request('admin', 'POST', '/api/pages', 'x', { 'content-type': 'multipart/form-data' }))
    expect(message).toMatch(/multipart/)
    const form = new FormData()
    form.append('_payload', '{not json')
    expect(await expectRefused(await request('admin', 'POST', '/api/categories', form))).toMatch(/_payload is not JSON/)
  })

  it('refuses malformed GraphQL where arguments with status 400', async () => {
    for (const [query, variables] of MALFORMED_GRAPHQL_WHERE) {
      const body = await graphql(query, variables)
      expect(body.errors?.[0]?.extensions?.statusCode, JSON.stringify(body)).toBe(400)
    }
    // GraphQL's own types refuse a date that is not one: whatever answers, it is no 500.
    const date = await graphql(NOT_A_DATE_GRAPHQL)
    expect(date.errors?.length).toBeGreaterThan(0)
    expect(date.errors?.some(({ extensions }) => extensions?.statusCode === 500)).toBe(false)
  })

  it('logs REST refusals at info, without a stack', async () => {
    const errors = vi.spyOn(app.payload.logger, 'error')
    const infos = vi.spyOn(app.payload.logger, 'info')
    await expectRefused(await request('anonymous', 'GET', '/api/pages?where[createdAt][greater_than]=notadate'))
    await expectRefused(await request('anonymous', 'GET', '/api/posts?where[categories][in][0][x]=1'))
    expect(errors).not.toHaveBeenCalled()
    expect(infos).toHaveBeenCalledWith({ msg: 'where.createdAt.greater_than: "notadate" is not a date' })
    expect(infos).toHaveBeenCalledWith({ msg: 'where.categories.in: {"x":"1"} is not an id' })
    errors.mockRestore()
    infos.mockRestore()
  })
})

describe('legitimate queries keep working', () => {
  it('relationship in and contains, with ids and with a query of the related documents', async () => {
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[categories][in]=${fixture.category}`))).toContain(fixture.post)
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[categories][in][0]=${fixture.category}&where[categories][in][1]=99999`))).toContain(fixture.post)
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[categories][contains]=${fixture.category}`))).toContain(fixture.post)
    const byTitle = `/api/posts?where[categories][contains][title][equals]=${encodeURIComponent(fixture.categoryTitle)}`
    expect(await ids(await request('anonymous', 'GET', byTitle))).toContain(fixture.post)
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[categories.title][like]=${encodeURIComponent(fixture.categoryTitle)}`))).toContain(fixture.post)
  })

  it("the admin's list filters: or/and, like, exists, ISO dates, id lists", async () => {
    const title = encodeURIComponent(fixture.postTitle)
    const filters = `where[or][0][and][0][title][like]=${title}&where[or][0][and][1][publishedAt][greater_than]=2024-12-31T00:00:00.000Z&where[or][0][and][2][title][exists]=true`
    expect(await ids(await request('anonymous', 'GET', `/api/posts?${filters}`))).toEqual([fixture.post])
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[title][equals]=${title}&where[publishedAt][less_than]=2024-12-31`))).toEqual([])
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where[id][in][0]=${fixture.post}&where[id][not_in]=99999`))).toEqual([fixture.post])
    expect(await ids(await request('anonymous', 'GET', `/api/posts?where=${encodeURIComponent(JSON.stringify({ title: { equals: fixture.postTitle } }))}`))).toEqual([fixture.post])
    // The admin's relationship picker searches collections without a title field by id.
    expect(await ids(await request('anonymous', 'GET', `/api/categories?where[id][like]=${fixture.category}`))).toEqual([fixture.category])
  })

  it('equals null, "null" for a relationship, block types, relationships to several collections', async () => {
    expect(await ids(await request('anonymous', 'GET', `/api/categories?where[parent][equals]=null&where[id][equals]=${fixture.category}`))).toEqual([fixture.category])
    const noParent = { and: [{ parent: { equals: null } }, { id: { equals: fixture.category } }] }
    expect(await ids(await request('anonymous', 'GET', `/api/categories?where=${encodeURIComponent(JSON.stringify(noParent))}`))).toEqual([fixture.category])
    expect(await ids(await request('anonymous', 'GET', `/api/pages?where[layout.blockType][equals]=content&where[id][equals]=${fixture.page}`))).toEqual([fixture.page])
    expect((await request('anonymous', 'GET', '/api/pages?where[layout.blockType][not_equals]=chart')).status).toBe(200)
    const searchRows = await ids(await request('anonymous', 'GET', `/api/search?where[doc][equals][relationTo]=posts&where[doc][equals][value]=${fixture.post}`))
    expect(searchRows).toHaveLength(1)
    expect(await ids(await request('anonymous', 'GET', `/api/search?where[doc.value][in][0]=${fixture.post}`))).toEqual(expect.arrayContaining(searchRows))
  })

  it('choices, checkboxes, numbers, versions, sort, select and populate', async () => {
    expect((await ids(await request('admin', 'GET', '/api/users?where[role][in]=admin,editor'))).length).toBeGreaterThanOrEqual(2)
    expect((await request('admin', 'GET', '/api/map-layers?where[public][equals]=true&where[style.radius][greater_than_equal]=2')).status).toBe(200)
    expect((await request('anonymous', 'GET', '/api/media?where[mimeType][equals]=image/png&where[width][greater_than]=0')).status).toBe(200)
    const versions = await ids(await request('admin', 'GET', `/api/pages/versions?where[parent][equals]=${fixture.page}&where[latest][equals]=true&where[version.title][like]=Guarded`))
    expect(versions).toHaveLength(1)
    const shaped = await request('anonymous', 'GET', `/api/posts?where[id][equals]=${fixture.post}&sort=-publishedAt,title&select[title]=true&select[categories]=true&depth=1&populate[categories][title]=true`)
    expect(await shaped.json()).toMatchObject({ docs: [{ title: fixture.postTitle, categories: [{ title: fixture.categoryTitle }] }] })
  })

  it('GraphQL where arguments', async () => {
    const body = await graphql('query ($title: String, $category: JSON) { Posts(where: { OR: [{ title: { equals: $title } }, { categories: { in: [$category] } }] }) { docs { id } } }', {
      title: fixture.postTitle,
      category: fixture.category,
    })
    expect(body.data?.Posts?.docs?.map(({ id }) => id)).toContain(fixture.post)
    const dated = await graphql('{ Posts(where: { publishedAt: { greater_than: "2024-12-31T00:00:00.000Z", exists: true } }) { totalDocs } }')
    expect(dated.errors, JSON.stringify(dated.errors)).toBeUndefined()
    expect(dated.data?.Posts?.totalDocs).toBeGreaterThanOrEqual(1)
    const empty = await graphql('{ Categories(where: { parent: { equals: null } }) { totalDocs } }')
    expect(empty.errors).toBeUndefined()
  })

  it('junk in depth, sort, select and populate is ignored, never a 500', async () => {
    for (const query of ['depth=abc', 'depth=-1', 'depth=99999', 'depth[x]=1', 'sort[x]=1', 'sort=-,,,', 'sort=%00', 'sort=nosuchfield', 'select=abc', 'select[title][x]=1', 'populate=abc', 'joins=abc']) {
      expect((await request('anonymous', 'GET', `/api/posts?${query}`)).status, query).toBe(200)
    }
  })
})
