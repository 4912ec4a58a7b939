import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import {
  parseRetryAfter,
  readAtMost,
  readTextAtMost,
  RedirectRefused,
  send,
  sleep,
  startDeadline,
  statusClass,
  type StatusClass,
} from '@/upstreams/outbound'

type Route = (request: IncomingMessage, response: ServerResponse, body: string) => void
type Seen = { method: string; path: string; headers: IncomingMessage['headers']; body: string }

/** A real local server on port 0: each test sets `route`; every request is recorded. */
let route: Route
let base: string
const seen: Seen[] = []
const server = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
  request.on('end', () => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body })
    route(request, response, body)
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

beforeEach(() => {
  seen.length = 0
})

/** Sends `path` on the test server with a generous deadline. */
const get = (path: string, signal = startDeadline(5_000).signal) => send(`${base}${path}`, { signal })

const answer =
  (status: number, headers: Record<string, string> = {}, body = ''): Route =>
  (_request, response) => {
    response.writeHead(status, headers)
    response.end(body)
  }

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-05-06T10:00:00Z')

  it('reads delta-seconds, whole or not, as milliseconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000)
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('0.5', now)).toBe(500)
  })

  it('reads an HTTP date as the time left until it, never negative', () => {
    expect(parseRetryAfter('Wed, 06 May 2026 10:00:04 GMT', now)).toBe(4000)
    expect(parseRetryAfter('Wed, 06 May 2026 09:59:00 GMT', now)).toBe(0)
  })

  it.each([[null], [undefined], [''], ['   '], ['soon'], ['-5'], ['1.5.2'], ['1 2'], ['+5'], ['1e3'], ['2026-05-07'], ['Wed, 99 Foo 2026 25:00:00 GMT']])(
    'ignores %j',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined()
    },
  )

  it('reads both forms as a real server sends them', async () => {
    const at = new Date(Date.now() + 120_000).toUTCString()
    for (const [header, low, high] of [
      ['7', 7000, 7000],
      [at, 118_000, 121_000],
    ] as const) {
      route = answer(429, { 'retry-after': header })
      const response = await get('/limited')
      const ms = parseRetryAfter(response.headers.get('retry-after'))
      expect(ms).toBeGreaterThanOrEqual(low)
      expect(ms).toBeLessThanOrEqual(high)
    }
    route = answer(429, { 'retry-after': 'in a while' })
    expect(parseRetryAfter((await get('/limited')).headers.get('retry-after'))).toBeUndefined()
  })
})

describe('statusClass', () => {
  it.each<[number, StatusClass]>([
    [200, 'ok'],
    [204, 'ok'],
    [299, 'ok'],
    [301, 'redirect'],
    [304, 'redirect'],
    [308, 'redirect'],
    [400, 'client-error'],
    [401, 'denied'],
    [402, 'client-error'],
    [403, 'denied'],
    [404, 'client-error'],
    [408, 'client-error'],
    [429, 'rate-limited'],
    [500, 'server-error'],
    [501, 'server-error'],
    [503, 'server-error'],
    [599, 'server-error'],
  ])('%i is %s', (status, expected) => {
    expect(statusClass(status)).toBe(expected)
  })

  it('classes what a real server answers', async () => {
    for (const [status, expected] of [
      [200, 'ok'],
      [401, 'denied'],
      [404, 'client-error'],
      [429, 'rate-limited'],
      [503, 'server-error'],
    ] as const) {
      route = answer(status)
      expect(statusClass((await get('/status')).status)).toBe(expected)
    }
  })
})

describe('send', () => {
  it('passes the method, headers and body on', async () => {
    route = (_request, response, body) => answer(200, { 'content-type': 'application/json' }, body)(_request, response, body)
    const response = await send(`${base}/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: '{"a":1}',
      signal: startDeadline(5_000).signal,
    })
    expect(await response.json()).toEqual({ a: 1 })
    expect(seen).toMatchObject([{ method: 'POST', path: '/echo', headers: { authorization: 'Bearer secret' }, body: '{"a":1}' }])
  })

  it('refuses a redirect instead of following it, for any method', async () => {
    route = (request, response) => {
      if (request.url === '/elsewhere') return answer(200, {}, 'followed')(request, response, '')
      answer(request.method === 'POST' ? 307 : 302, { location: '/elsewhere' })(request, response, '')
    }
    const refused = await get('/start').then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(RedirectRefused)
    expect(refused).toMatchObject({ status: 302 })
    await expect(send(`${base}/start`, { method: 'POST', body: 'x', signal: startDeadline(5_000).signal })).rejects.toMatchObject({
      name: 'RedirectRefused',
      status: 307,
    })
    expect(seen.map((request) => request.path)).toEqual(['/start', '/start'])
  })

  it('uses an injected fetch, asking it not to follow redirects', async () => {
    const inits: RequestInit[] = []
    const response = await send('https://upstream.example/x', {
      signal: startDeadline(5_000).signal,
      fetch: async (_input, init) => {
        inits.push(init ?? {})
        return new Response('ok')
      },
    })
    expect(await response.text()).toBe('ok')
    expect(inits[0]).toMatchObject({ method: 'GET', redirect: 'manual' })
  })
})

describe('deadline', () => {
  it('aborts a body that stops half way, and tells the deadline from the caller', async () => {
    route = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"half":')
      // The rest never comes (the server is closed at the end).
    }
    const deadline = startDeadline(150)
    const started = performance.now()
    const response = await send(`${base}/stalls`, { signal: deadline.signal })
    expect(response.status).toBe(200)
    await expect(readAtMost(response, 1024)).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(deadline.expired).toBe(true)
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  it('aborts an answer that does not come at all', async () => {
    route = () => undefined
    const deadline = startDeadline(100)
    await expect(get('/silent', deadline.signal)).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(deadline.expired).toBe(true)
  })

  it("stops on the caller's own abort, with the caller's reason, before the deadline", async () => {
    route = () => undefined
    const caller = new AbortController()
    const deadline = startDeadline(5_000, caller.signal)
    const reason = new Error('the caller went away')
    setTimeout(() => caller.abort(reason), 50)
    await expect(get('/silent', deadline.signal)).rejects.toBe(reason)
    expect(deadline.expired).toBe(false)
    expect(deadline.signal.reason).toBe(reason)
  })

  it('is already aborted when the caller already was', async () => {
    const caller = new AbortController()
    caller.abort()
    const deadline = startDeadline(5_000, caller.signal)
    expect(deadline.signal.aborted).toBe(true)
    expect(deadline.expired).toBe(false)
    expect(deadline.at).toBeGreaterThan(Date.now() + 4_000)
  })
})

describe('readAtMost', () => {
  const chunked =
    (bytes: number): Route =>
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      for (let sent = 0; sent < bytes; sent += 1000) response.write('x'.repeat(Math.min(1000, bytes - sent)))
      response.end()
    }

  it('reads a body up to the limit, the limit included', async () => {
    route = chunked(4096)
    expect((await readAtMost(await get('/body'), 4096))?.byteLength).toBe(4096)
    route = answer(200, {}, 'héllo')
    expect(await readTextAtMost(await get('/text'), 64)).toBe('héllo')
    route = answer(204)
    expect((await readAtMost(await get('/empty'), 0))?.byteLength).toBe(0)
  })

  it('gives up on a streamed body past the limit', async () => {
    route = chunked(64 * 1024)
    expect(await readAtMost(await get('/big'), 4096)).toBeUndefined()
    expect(await readTextAtMost(await get('/big'), 4096)).toBeUndefined()
  })

  it('refuses a declared Content-Length over the limit before reading', async () => {
    route = answer(200, { 'content-length': '5000' }, 'y'.repeat(5000))
    const response = await get('/declared')
    expect(await readAtMost(response, 4999)).toBeUndefined()
    expect(response.bodyUsed).toBe(true)
  })
})

describe('sleep', () => {
  it('waits, or stops with the signal’s reason', async () => {
    const started = performance.now()
    await sleep(30)
    expect(performance.now() - started).toBeGreaterThanOrEqual(25)
    const controller = new AbortController()
    const reason = new Error('stop')
    setTimeout(() => controller.abort(reason), 20)
    await expect(sleep(5_000, controller.signal)).rejects.toBe(reason)
    await expect(sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason)
  })
})
