import { describe, expect, it } from 'vitest'

import { richText } from '@/seed/richText'

import { accounts } from '../helpers/accounts'

import { call, expectRefusal, servers } from './http'
import type { SecurityServer } from './global-setup'

const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`

const graphql = (server: SecurityServer, caller: Parameters<typeof call>[1], query: string) =>
  call(server, caller, 'POST', '/api/graphql', { query })

/** A public layer with everything citizens must not see: filters, rules, tenant-free source with a @context URL. */
async function createSecretLayer(server: SecurityServer) {
  const marker = unique('secret')
  const response = await call(server, 'admin', 'POST', '/api/map-layers', {
    name: unique('Layer'),
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2'],
    public: true,
    source: { contextUrl: `https://context.example/${marker}.jsonld`, filters: [{ attribute: 'no2', operator: 'gte', value: marker }] },
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: `rule ${marker}` }],
  })
  const text = await response.text()
  expect(response.status, text).toBe(201)
  return { id: JSON.parse(text).doc.id as number | string, marker }
}

describe.each(servers())('V13 API: GraphQL answers and keeps the access rules ($name)', (server) => {
  it('answers { __typename } with 200', async () => {
    const response = await graphql(server, 'anonymous', '{ __typename }')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } })
  })

  it('refuses an anonymous page created through GraphQL, and stores nothing', async () => {
    const slug = unique('gql-anon-page')
    const response = await graphql(server, 'anonymous', `mutation { createPage(data: { title: "Nope", slug: "${slug}" }) { id } }`)
    const body = await response.json()
    expect(body.errors?.length, JSON.stringify(body)).toBeGreaterThan(0)
    expect(body.data?.createPage ?? null).toBeNull()
    const found = await (await call(server, 'admin', 'GET', `/api/pages?where[slug][equals]=${slug}&draft=true`)).json()
    expect(found.totalDocs).toBe(0)
  })

  it('refuses a viewer who promotes itself through GraphQL', async () => {
    const me = await (await call(server, 'viewer', 'GET', '/api/users/me')).json()
    await graphql(server, 'viewer', `mutation { updateUser(id: ${JSON.stringify(me.user.id)}, data: { role: admin }) { role } }`)
    const after = await (await call(server, 'admin', 'GET', `/api/users/${me.user.id}`)).json()
    expect(after.role).toBe('viewer')
  })

  it('lists no users to an anonymous GraphQL caller', async () => {
    const body = await (await graphql(server, 'anonymous', '{ Users { docs { email } } }')).json()
    expect(JSON.stringify(body)).not.toContain(accounts.admin.email)
  })
})

describe.each(servers())('V8 Data protection: citizens get what they need of a map layer ($name)', (server) => {
  it('hides filters, rules and the @context URL from anonymous REST and GraphQL reads', async () => {
    const { id, marker } = await createSecretLayer(server)
    for (const path of [`/api/map-layers/${id}?depth=2`, `/api/map-layers?depth=2&limit=100`, `/api/map-layers/${id}?select[source]=true`]) {
      const response = await call(server, 'anonymous', 'GET', path)
      const text = await response.text()
      expect(response.status, path).toBe(200)
      expect(text, path).not.toContain(marker)
      expect(text, path).not.toMatch(/"(source|entityType|attributes|popupAttributes|maxFeatures)"/)
      // Payload answers an array the caller may not read as empty.
      expect(text, path).not.toMatch(/"alertRules":\[[^\]]/)
    }
    const single = await (await call(server, 'anonymous', 'GET', `/api/map-layers/${id}`)).json()
    expect(single.name).toBeTruthy()
    expect(single.style?.colour).toMatch(/^#/)

    const gql = await graphql(server, 'anonymous', `{ MapLayer(id: ${JSON.stringify(id)}) { name source { contextUrl filters { value } } alertRules { message } } }`)
    expect(await gql.text()).not.toContain(marker)
  })

  it('still shows the whole layer to a signed-in member', async () => {
    const { id, marker } = await createSecretLayer(server)
    expect(await (await call(server, 'viewer', 'GET', `/api/map-layers/${id}`)).text()).toContain(marker)
  })
})

describe.each(servers())('V8 Data protection: session ids never leave the server ($name)', (server) => {
  it('keeps sessions out of the own account, login answers and populated authors', async () => {
    const me = await call(server, 'viewer', 'GET', '/api/users/me')
    expect(await me.text()).not.toMatch(/"sessions"/)
    const signIn = await call(server, 'anonymous', 'POST', '/api/users/login', { email: accounts.viewer.email, password: accounts.viewer.password })
    expect(await signIn.text()).not.toMatch(/"sessions"/)

    const viewerId = (await (await call(server, 'viewer', 'GET', '/api/users/me')).json()).user.id
    const post = await call(server, 'admin', 'POST', '/api/posts', {
      title: unique('Post'),
      slug: unique('post'),
      content: richText('News'),
      authors: [viewerId],
      _status: 'published',
    })
    const postText = await post.text()
    expect(post.status, postText).toBe(201)
    const postId = JSON.parse(postText).doc.id
    for (const caller of ['viewer', 'admin'] as const) {
      for (const path of [`/api/posts/${postId}?depth=3`, `/api/users/${viewerId}?depth=3`, `/api/users?depth=3`]) {
        expect(await (await call(server, caller, 'GET', path)).text(), `${caller} ${path}`).not.toMatch(/"sessions"/)
      }
    }
  })

  it('resolves no session ids through GraphQL, to the account itself either', async () => {
    const body = await (await graphql(server, 'viewer', '{ meUser { user { email sessions { id } } } Users { docs { sessions { id } } } }')).json()
    const sessions = [body.data?.meUser?.user?.sessions, ...(body.data?.Users?.docs ?? []).map((doc: { sessions?: unknown }) => doc.sessions)]
    for (const value of sessions) expect(value ?? null).toBeNull()
  })
})

describe.each(servers())('V12 Files and resources: editors cannot point the server at internal hosts ($name)', (server) => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:6379/ctx.jsonld',
    'http://[::1]/ctx.jsonld',
    'http://10.1.2.3/ctx.jsonld',
    'http://192.168.0.1/ctx.jsonld',
    'http://[::ffff:169.254.169.254]/x',
    'http://localhost/ctx.jsonld',
    'http://metadata/ctx.jsonld',
    // Read as example.org by WHATWG, as 127.0.0.1 by RFC 3986 parsers such as libcurl.
    'http://example.org\\@127.0.0.1/ctx.jsonld',
    'http://example.org:80\\@127.0.0.1:6379/ctx.jsonld',
    'https://example.org\\@169.254.169.254/latest/meta-data/',
    'http://example.org%5C@127.0.0.1/ctx.jsonld',
    'http://example.org /@127.0.0.1/ctx.jsonld',
  ])('refuses the @context URL %s and stores nothing', async (contextUrl) => {
    const name = unique('Internal')
    const response = await call(server, 'editor', 'POST', '/api/map-layers', { name, entityType: 'AirQualityObserved', attributes: ['no2'], source: { contextUrl } })
    expect(await expectRefusal(response, 400)).toMatch(/contextUrl|private|Loopback/i)
    const found = await (await call(server, 'admin', 'GET', `/api/map-layers?where[name][equals]=${name}`)).json()
    expect(found.totalDocs).toBe(0)
  })

  it('refuses a hostile tenant with its own field error before asking the broker', async () => {
    const name = unique('Tenant')
    const response = await call(server, 'editor', 'POST', '/api/map-layers', {
      name,
      entityType: 'AirQualityObserved',
      attributes: ['no2'],
      source: { tenant: 'porto\r\nX-Injected: 1' },
    })
    const text = await expectRefusal(response, 400)
    expect(text).toMatch(/source\.tenant/)
    expect(text).not.toMatch(/broker has no/i)
    const found = await (await call(server, 'admin', 'GET', `/api/map-layers?where[name][equals]=${name}`)).json()
    expect(found.totalDocs).toBe(0)
  })
})
