import { afterEach, describe, expect, it } from 'vitest'

import { NgsiClient, NgsiError, type NgsiClientOptions } from '@/ngsi'

import { delay, sendJson, startServer, type Handler, type TestServer } from './helpers'

const CORE = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'
const ERRORS = 'https://uri.etsi.org/ngsi-ld/errors/'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function clientFor(handler: Handler, options: Partial<NgsiClientOptions> = {}) {
  server = await startServer(handler)
  return new NgsiClient({ brokerUrl: server.url, retries: 0, ...options })
}

async function failure(promise: Promise<unknown>): Promise<NgsiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(NgsiError)
  return error as NgsiError
}

const entity = { id: 'urn:ngsi-ld:Thing:1', type: 'Thing', n: { type: 'Property', value: 1 } }
const problem = (status: number, type: string, title = 'Problem', contentType = 'application/json'): Handler => (_request, response) =>
  sendJson(response, status, { type, title, detail: `detail of ${title}` }, { 'Content-Type': contentType })

describe('request headers', () => {
  it('sends exactly one JSON-LD Link header, Accept: application/json, and no tenant when none is set', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 200, [entity]))
    await client.queryEntities({ type: 'Thing' })
    const [request] = server!.requests
    const linkLines = request.rawHeaders.filter((_, index) => index % 2 === 0 && request.rawHeaders[index].toLowerCase() === 'link')
    expect(linkLines).toHaveLength(1)
    expect(request.headers.link).toBe(`<${CORE}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`)
    expect(request.headers.accept).toBe('application/json')
    expect(request.headers).not.toHaveProperty('ngsild-tenant')
    expect(request.headers).not.toHaveProperty('authorization')
  })

  it('sends the tenant only when non-empty, a per-call tenant and @context, and the bearer token', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 200, entity), { tenant: 'santander', authToken: 's3cret', contextUrl: 'https://example.org/ctx.jsonld' })
    await client.getEntity(entity.id)
    await client.getEntity(entity.id, { tenant: 'porto', contextUrl: 'https://example.org/other.jsonld' })
    await client.getEntity(entity.id, { tenant: '' })
    const [first, second, third] = server!.requests
    expect(first.headers['ngsild-tenant']).toBe('santander')
    expect(first.headers.authorization).toBe('Bearer s3cret')
    expect(first.headers.link).toContain('<https://example.org/ctx.jsonld>')
    expect(second.headers['ngsild-tenant']).toBe('porto')
    expect(second.headers.link).toContain('<https://example.org/other.jsonld>')
    expect(third.headers).not.toHaveProperty('ngsild-tenant')
    await expect(client.getEntity(entity.id, { tenant: 'a b\r\nX-Injected: 1' })).rejects.toMatchObject({ kind: 'bad-request' })
  })

  it('percent-encodes ids in paths and every query value', async () => {
    const thing = { id: 'http://example.org/things/1?x#y', type: 'Thing' }
    const client = await clientFor((request, response) => sendJson(response, 200, request.url.pathname.endsWith('/entities') ? [thing] : thing))
    await client.getEntity('http://example.org/things/1?x#y')
    await client.queryEntities({ q: { kind: 'compare', attribute: 'name', operator: '==', value: 'a&b=c d' }, attrs: ['name'] })
    const [byId, query] = server!.requests
    expect(byId.url.pathname).toBe('/ngsi-ld/v1/entities/http%3A%2F%2Fexample.org%2Fthings%2F1%3Fx%23y')
    expect(query.url.searchParams.get('q')).toBe('name=="a&b=c d"')
    expect(query.url.search).not.toMatch(/[ "&]b=c/)
  })

  it('accepts a broker URL that already ends in /ngsi-ld/v1', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, entity))
    await new NgsiClient({ brokerUrl: `${server.url}/ngsi-ld/v1/` }).getEntity(entity.id)
    expect(server.requests[0].url.pathname).toBe('/ngsi-ld/v1/entities/urn%3Angsi-ld%3AThing%3A1')
  })

  it('refuses an unfiltered query before sending anything', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 200, []))
    expect((await failure(client.queryEntities({}))).kind).toBe('bad-request')
    expect(server!.requests).toHaveLength(0)
  })
})

describe('errors', () => {
  it('parses problem+json into kind, type and detail', async () => {
    const client = await clientFor(problem(404, `${ERRORS}ResourceNotFound`, 'Entity Not Found', 'application/problem+json'))
    const error = await failure(client.getEntity('urn:ngsi-ld:Thing:missing'))
    expect(error).toMatchObject({ kind: 'not-found', status: 404, problemType: `${ERRORS}ResourceNotFound`, detail: 'detail of Entity Not Found' })
    expect(error.message).toContain('Entity Not Found')
  })

  it.each([
    [`${ERRORS}NonExistingTenant`, 'Orion-LD'],
    [`${ERRORS}TenantNotFound`, 'Scorpio'],
    [`${ERRORS}NonexistentTenant`, 'Stellio'],
    ['  TenantNotFound  ', 'padded, not a URI'],
  ])('reads a 404 %s (%s) as unknown-tenant', async (type) => {
    const client = await clientFor(problem(404, type))
    expect((await failure(client.queryEntities({ type: 'Thing' }, { tenant: 'nowhere' }))).kind).toBe('unknown-tenant')
  })

  it('maps statuses and problem types to kinds', async () => {
    const cases: [number, string, string][] = [
      [400, `${ERRORS}BadRequestData`, 'bad-request'],
      [401, `${ERRORS}Unauthorized`, 'unauthorized'],
      [403, `${ERRORS}Forbidden`, 'forbidden'],
      [403, `${ERRORS}TooManyResults`, 'too-many-results'],
      [501, `${ERRORS}OperationNotSupported`, 'not-supported'],
      [503, `${ERRORS}LdContextNotAvailable`, 'context-unavailable'],
      [500, `${ERRORS}InternalError`, 'unavailable'],
    ]
    for (const [status, type, kind] of cases) {
      const client = await clientFor(problem(status, type), { maxPageSize: 1 })
      expect((await failure(client.getEntity('urn:x:1'))).kind, `${status} ${type}`).toBe(kind)
      await server!.close()
      server = undefined
    }
  })

  it('falls back to the status text for HTML and empty error bodies', async () => {
    const client = await clientFor((_request, response) => {
      response.writeHead(502, { 'Content-Type': 'text/html' })
      response.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>')
    })
    const error = await failure(client.getEntity('urn:x:1'))
    expect(error.kind).toBe('unavailable')
    expect(error.message).toContain('502 Bad Gateway')
    expect(error.problemType).toBeUndefined()
    await server!.close()
    const empty = await clientFor((_request, response) => {
      response.writeHead(504)
      response.end()
    })
    expect((await failure(empty.getEntity('urn:x:1'))).message).toContain('504 Gateway Timeout')
  })

  it('reports 2xx answers that are not JSON as invalid-response', async () => {
    let answer = 0
    const client = await clientFor((_request, response) => {
      answer++
      if (answer === 1) {
        response.writeHead(200, { 'Content-Type': 'text/html' })
        response.end('<html>maintenance</html>')
      } else if (answer === 2) {
        response.writeHead(200, { 'Content-Type': 'application/json' })
        response.end('[{"id": "urn:x:1", "ty')
      } else {
        sendJson(response, 200, { not: 'a list' })
      }
    })
    expect((await failure(client.getEntity('urn:x:1'))).kind).toBe('invalid-response')
    expect((await failure(client.queryEntities({ type: 'Thing' }))).kind).toBe('invalid-response')
    expect((await failure(client.queryEntities({ type: 'Thing' }))).kind).toBe('invalid-response')
  })

  it('reports network failures as network', async () => {
    server = await startServer(() => {})
    const url = server.url
    await server.close()
    server = undefined
    const error = await failure(new NgsiClient({ brokerUrl: url, retries: 0 }).listTypes())
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/ECONNREFUSED/)
  })

  it('does not follow a redirect: the token and tenant never reach the address it names', async () => {
    const elsewhere = await startServer((_request, response) => sendJson(response, 200, [entity]))
    try {
      const client = await clientFor(
        (_request, response) => {
          response.writeHead(302, { Location: `${elsewhere.url}/ngsi-ld/v1/entities?type=Thing` })
          response.end()
        },
        { authToken: 's3cret', tenant: 'santander' },
      )
      const error = await failure(client.queryEntities({ type: 'Thing' }))
      expect(error).toMatchObject({ kind: 'invalid-response', status: 302 })
      expect(error.message).toMatch(/redirect/)
      expect(elsewhere.requests).toHaveLength(0)
    } finally {
      await elsewhere.close()
    }
  })
})

describe('timeouts and retries', () => {
  it('retries a 503 with backoff and then succeeds', async () => {
    let calls = 0
    const client = await clientFor(
      (_request, response) => {
        calls++
        if (calls <= 2) sendJson(response, 503, { type: `${ERRORS}InternalError`, title: 'Service Unavailable' })
        else sendJson(response, 200, entity)
      },
      { retries: 2 },
    )
    const started = performance.now()
    expect((await client.getEntity(entity.id)).id).toBe(entity.id)
    expect(calls).toBe(3)
    // 100 ms then 200 ms of backoff.
    expect(performance.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('gives up after the configured retries', async () => {
    const client = await clientFor(problem(503, `${ERRORS}InternalError`), { retries: 1 })
    expect((await failure(client.getEntity(entity.id))).kind).toBe('unavailable')
    expect(server!.requests).toHaveLength(2)
  })

  it('retries network errors (a connection cut mid-way)', async () => {
    let calls = 0
    const client = await clientFor(
      (_request, response) => {
        calls++
        if (calls === 1) response.socket?.destroy()
        else sendJson(response, 200, entity)
      },
      { retries: 2 },
    )
    expect((await client.getEntity(entity.id)).id).toBe(entity.id)
    expect(calls).toBe(2)
  })

  it('never retries a 4xx or a 501', async () => {
    const client = await clientFor(problem(400, `${ERRORS}BadRequestData`, 'Bad Request Data'), { retries: 3 })
    const error = await failure(client.queryEntities({ type: 'Thing' }))
    expect(error).toMatchObject({ kind: 'bad-request', status: 400, problemType: `${ERRORS}BadRequestData` })
    expect(server!.requests).toHaveLength(1)
    await server!.close()
    const unsupported = await clientFor(problem(501, `${ERRORS}OperationNotSupported`), { retries: 3 })
    expect((await failure(unsupported.temporal(entity.id, { lastN: 1 }))).kind).toBe('not-supported')
    expect(server!.requests).toHaveLength(1)
  })

  it('times out a hanging broker with kind timeout', async () => {
    const client = await clientFor(() => {}, { timeoutMs: 150, retries: 2 })
    const started = performance.now()
    const error = await failure(client.getEntity(entity.id))
    expect(error.kind).toBe('timeout')
    expect(performance.now() - started).toBeLessThan(1000)
    // A timeout is not retried: waiting again would only double the wait.
    expect(server!.requests).toHaveLength(1)
  })

  it('rejects with the caller reason when the caller aborts, without retrying', async () => {
    const client = await clientFor(() => {}, { retries: 3 })
    const controller = new AbortController()
    const pending = client.getEntity(entity.id, { signal: controller.signal })
    await delay(50)
    controller.abort(new Error('user left'))
    await expect(pending).rejects.toThrow('user left')
    expect(server!.requests).toHaveLength(1)
  })
})
