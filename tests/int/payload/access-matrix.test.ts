import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { richText } from '@/seed/richText'

import { authHeaders, createUserLocally, type Role, ROLES, testAccount } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

type Caller = 'anonymous' | Role
type Operation = 'create' | 'read' | 'read-draft' | 'update' | 'delete' | 'publish'
type Id = number | string

let app: PayloadApi

const callers: Caller[] = ['anonymous', 'viewer', 'editor', 'admin']
const tokenOf = (caller: Caller) => (caller === 'anonymous' ? null : app.tokens[caller])

async function call(caller: Caller, method: string, path: string, body?: unknown) {
  return fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { ...authHeaders(tokenOf(caller)), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`

/** How to make, change and address one document of each kind. */
type Resource = {
  slug: string
  versioned: boolean
  valid: () => Record<string, unknown>
  change: Record<string, unknown>
  create?: (caller: Caller) => Promise<Response>
}

const pageData = () => ({
  title: unique('Page'),
  slug: unique('page'),
  layout: [{ blockType: 'content', columns: [{ width: 'full', richText: richText('Hello') }] }],
})
const postData = () => ({ title: unique('Post'), slug: unique('post'), content: richText('News') })

const resources: Resource[] = [
  { slug: 'pages', versioned: true, valid: pageData, change: { title: 'Changed' } },
  { slug: 'posts', versioned: true, valid: postData, change: { title: 'Changed' } },
  { slug: 'categories', versioned: false, valid: () => ({ title: unique('Cat'), slug: unique('cat') }), change: { title: 'Changed' } },
  {
    slug: 'media',
    versioned: false,
    valid: () => ({ alt: 'A test image' }),
    change: { alt: 'Changed' },
    create: async (caller) => {
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0b5cad' } }).png().toBuffer()
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${unique('img')}.png`)
      form.append('_payload', JSON.stringify({ alt: 'An uploaded image' }))
      return fetch(`${app.baseUrl}/api/media`, { method: 'POST', headers: authHeaders(tokenOf(caller)), body: form })
    },
  },
  {
    slug: 'redirects',
    versioned: false,
    valid: () => ({ from: `/${unique('old')}`, to: { type: 'custom', url: '/posts' } }),
    change: { to: { type: 'custom', url: '/changed' } },
  },
]

// Who may do what: the access rules of the design brief, one row per collection.
const staff: Caller[] = ['editor', 'admin']
const staffOnlyWrites = { create: staff, update: staff, delete: staff }
const expected: Record<string, Partial<Record<Operation, Caller[]>>> = {
  pages: { ...staffOnlyWrites, read: callers, 'read-draft': ['viewer', 'editor', 'admin'], publish: ['editor', 'admin'] },
  posts: { ...staffOnlyWrites, read: callers, 'read-draft': ['viewer', 'editor', 'admin'], publish: ['editor', 'admin'] },
  categories: { ...staffOnlyWrites, read: callers },
  media: { ...staffOnlyWrites, read: callers },
  redirects: { ...staffOnlyWrites, read: callers },
}

async function fixture(resource: Resource, status: 'published' | 'draft'): Promise<Id> {
  if (resource.slug === 'media') {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ffffff' } }).png().toBuffer()
    const doc = await app.payload.create({
      collection: 'media',
      data: { alt: 'Fixture' },
      file: { data: png, mimetype: 'image/png', name: `${unique('fixture')}.png`, size: png.length },
    })
    return doc.id
  }
  const data = { ...resource.valid(), ...(resource.versioned ? { _status: status } : {}) }
  const doc = await app.payload.create({
    collection: resource.slug as 'pages',
    data: data as never,
    draft: status === 'draft',
    context: { disableRevalidate: true },
  })
  return doc.id
}

async function perform(resource: Resource, operation: Operation, caller: Caller): Promise<Response> {
  const base = `/api/${resource.slug}`
  switch (operation) {
    case 'create':
      return resource.create ? resource.create(caller) : call(caller, 'POST', base, resource.valid())
    case 'read':
      return call(caller, 'GET', `${base}/${await fixture(resource, 'published')}`)
    case 'read-draft':
      return call(caller, 'GET', `${base}/${await fixture(resource, 'draft')}?draft=true`)
    case 'update':
      return call(caller, 'PATCH', `${base}/${await fixture(resource, 'published')}`, resource.change)
    case 'delete':
      return call(caller, 'DELETE', `${base}/${await fixture(resource, 'published')}`)
    case 'publish':
      return call(caller, 'PATCH', `${base}/${await fixture(resource, 'draft')}`, { _status: 'published' })
  }
}

beforeAll(async () => {
  app = await startPayloadApi({ roles: ROLES })
})

afterAll(() => app?.close())

describe('access matrix through the REST API', () => {
  const cells = resources.flatMap((resource) =>
    (Object.entries(expected[resource.slug]) as [Operation, Caller[]][]).flatMap(([operation, allowed]) =>
      callers.map((caller) => ({ resource, operation, caller, allowed: allowed.includes(caller) })),
    ),
  )

  it.each(cells.map((cell) => [cell.resource.slug, cell.operation, cell.caller, cell.allowed ? 'allowed' : 'refused', cell]))(
    '%s %s by %s is %s',
    async (_slug, _operation, _caller, _verdict, { resource, operation, caller, allowed }) => {
      const response = await perform(resource, operation, caller)
      if (allowed) expect(response.status, await response.clone().text()).toBeLessThan(300)
      else expect([401, 403, 404]).toContain(response.status)
    },
  )

  it('a refused publish leaves the draft unpublished', async () => {
    const id = await fixture(resources[0], 'draft')
    await call('viewer', 'PATCH', `/api/pages/${id}`, { _status: 'published' })
    const page = await app.payload.findByID({ collection: 'pages', id, draft: true })
    expect(page._status).toBe('draft')
  })
})

describe('globals', () => {
  const globals = [
    { slug: 'header', writers: ['editor', 'admin'], change: { navItems: [] } },
    { slug: 'footer', writers: ['editor', 'admin'], change: { copyright: 'Changed' } },
    { slug: 'site-settings', writers: ['admin'], change: { title: 'Changed title' } },
    { slug: 'accessibility-statement', writers: ['admin'], change: { conformance: 'partially' } },
  ]
  const cells = globals.flatMap((global) =>
    callers.flatMap((caller) => [
      { global, caller, operation: 'read' as const, allowed: true },
      { global, caller, operation: 'update' as const, allowed: global.writers.includes(caller) },
    ]),
  )

  it.each(cells.map((cell) => [cell.global.slug, cell.operation, cell.caller, cell.allowed ? 'allowed' : 'refused', cell]))(
    '%s %s by %s is %s',
    async (_slug, _operation, _caller, _verdict, { global, caller, operation, allowed }) => {
      const response =
        operation === 'read'
          ? await call(caller, 'GET', `/api/globals/${global.slug}`)
          : await call(caller, 'POST', `/api/globals/${global.slug}`, global.change)
      if (allowed) expect(response.status, await response.clone().text()).toBeLessThan(300)
      else expect([401, 403]).toContain(response.status)
    },
  )
})

describe('user accounts', () => {
  const cells = callers.flatMap((caller) =>
    (['read', 'update', 'delete'] as const).map((operation) => ({ caller, operation, allowed: caller === 'admin' })),
  )

  it.each(cells.map((cell) => [cell.operation, cell.caller, cell.allowed ? 'allowed' : 'refused', cell]))(
    "%s of another user's account by %s is %s",
    async (_operation, _caller, _verdict, { caller, operation, allowed }) => {
      const other = await createUserLocally(app.payload, testAccount('viewer', unique('other')))
      const path = `/api/users/${other.id}`
      const response =
        operation === 'read'
          ? await call(caller, 'GET', path)
          : operation === 'update'
            ? await call(caller, 'PATCH', path, { name: 'Renamed' })
            : await call(caller, 'DELETE', path)
      if (allowed) expect(response.status).toBeLessThan(300)
      else expect([401, 403, 404]).toContain(response.status)
    },
  )

  it.each(['viewer', 'editor'] as const)('a %s cannot promote themselves', async (role) => {
    const me = (await (await call(role, 'GET', '/api/users/me')).json()) as { user: { id: Id } }
    await call(role, 'PATCH', `/api/users/${me.user.id}`, { role: 'admin' })
    const after = await app.payload.findByID({ collection: 'users', id: me.user.id })
    expect(after.role).toBe(role)
  })

  it('an admin can change roles', async () => {
    const other = await createUserLocally(app.payload, testAccount('viewer', unique('promoted')))
    const response = await call('admin', 'PATCH', `/api/users/${other.id}`, { role: 'editor' })
    expect(response.status).toBe(200)
    expect((await app.payload.findByID({ collection: 'users', id: other.id })).role).toBe('editor')
  })
})

// The same rules through GraphQL: every cell the REST matrix checks for collections (uploads
// aside: GraphQL takes no files) and globals, as a mutation or query by the same callers.
describe('access matrix through GraphQL', () => {
  const typeNames: Record<string, string> = { pages: 'Page', posts: 'Post', categories: 'Category', media: 'Media', redirects: 'Redirect' }

  async function graphql(caller: Caller, query: string, variables: Record<string, unknown> = {}) {
    const response = await call(caller, 'POST', '/api/graphql', { query, variables })
    expect(response.status).toBeLessThan(500)
    return (await response.json()) as { data?: Record<string, { id?: Id } | null>; errors?: unknown[] }
  }

  // Numeric ids on SQL databases, strings on MongoDB: written as literals, they fit either id type.
  const literal = (id: Id) => JSON.stringify(id)

  /** The operation's result, or null when GraphQL refused it (an error, or no document). */
  async function performGraphql(resource: Resource, operation: Operation, caller: Caller): Promise<{ id?: Id } | null> {
    const name = typeNames[resource.slug]
    const answer = async (query: string, variables: Record<string, unknown> = {}) => {
      const body = await graphql(caller, query, variables)
      const result = Object.values(body.data ?? {})[0] ?? null
      return body.errors?.length ? null : result
    }
    switch (operation) {
      case 'create':
        return answer(`mutation ($data: mutation${name}Input!) { create${name}(data: $data) { id } }`, { data: resource.valid() })
      case 'read':
        return answer(`{ ${name}(id: ${literal(await fixture(resource, 'published'))}) { id } }`)
      case 'read-draft':
        return answer(`{ ${name}(id: ${literal(await fixture(resource, 'draft'))}, draft: true) { id } }`)
      case 'update':
        return answer(`mutation ($data: mutation${name}UpdateInput!) { update${name}(id: ${literal(await fixture(resource, 'published'))}, data: $data) { id } }`, {
          data: resource.change,
        })
      case 'delete':
        return answer(`mutation { delete${name}(id: ${literal(await fixture(resource, 'published'))}) { id } }`)
      case 'publish':
        return answer(`mutation ($data: mutation${name}UpdateInput!) { update${name}(id: ${literal(await fixture(resource, 'draft'))}, data: $data) { id } }`, {
          data: { _status: 'published' },
        })
    }
  }

  it('answers { __typename }', async () => {
    expect(await graphql('anonymous', '{ __typename }')).toEqual({ data: { __typename: 'Query' } })
  })

  const cells = resources.flatMap((resource) =>
    (Object.entries(expected[resource.slug]) as [Operation, Caller[]][])
      .filter(([operation]) => !(resource.slug === 'media' && operation === 'create'))
      .flatMap(([operation, allowed]) => callers.map((caller) => ({ resource, operation, caller, allowed: allowed.includes(caller) }))),
  )

  it.each(cells.map((cell) => [cell.resource.slug, cell.operation, cell.caller, cell.allowed ? 'allowed' : 'refused', cell]))(
    '%s %s by %s is %s',
    async (_slug, _operation, _caller, _verdict, { resource, operation, caller, allowed }) => {
      const result = await performGraphql(resource, operation, caller)
      if (allowed) expect(result?.id).toBeDefined()
      else expect(result?.id).toBeUndefined()
    },
  )

  const globals = [
    { name: 'Header', writers: ['editor', 'admin'], change: { navItems: [] }, field: 'updatedAt' },
    { name: 'Footer', writers: ['editor', 'admin'], change: { copyright: 'Changed' }, field: 'updatedAt' },
    { name: 'SiteSetting', writers: ['admin'], change: { title: 'Changed by GraphQL' }, field: 'updatedAt' },
    { name: 'AccessibilityStatement', writers: ['admin'], change: { conformance: 'partially', method: 'self_assessment', freeText: 'Changed by GraphQL' }, field: 'updatedAt' },
  ]
  it.each(globals.flatMap((global) => callers.map((caller) => [global.name, caller, global.writers.includes(caller) ? 'allowed' : 'refused', global] as const)))(
    'global %s update by %s is %s (and everyone reads it)',
    async (name, caller, verdict, global) => {
      const read = await graphql(caller, `{ ${name} { ${global.field} } }`)
      expect(read.errors ?? []).toEqual([])
      const update = await graphql(caller, `mutation ($data: mutation${name}Input!) { update${name}(data: $data) { ${global.field} } }`, {
        data: global.change,
      })
      if (verdict === 'allowed') expect(update.errors ?? []).toEqual([])
      else expect(update.errors?.length).toBeGreaterThan(0)
    },
  )

  it('lists no other account to a viewer, and no session ids to anyone', async () => {
    const body = await graphql('viewer', '{ Users { docs { email sessions { id } } } }')
    const docs = (body.data?.Users as unknown as { docs: { email: string; sessions: unknown }[] })?.docs ?? []
    expect(docs.length).toBeLessThanOrEqual(1)
    for (const doc of docs) expect(doc.sessions ?? null).toBeNull()
  })
})
