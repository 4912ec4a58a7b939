import net from 'node:net'

import { describe, expect, it } from 'vitest'

import type { SecurityServer } from './global-setup'
import { call, servers } from './http'

/** Writes `request` on a raw socket and resolves with everything the server sends until it closes. */
function raw(server: SecurityServer, request: string, { keepSending }: { keepSending?: () => string } = {}) {
  return new Promise<{ text: string; openMs: number }>((resolve, reject) => {
    const started = performance.now()
    const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1')
    let text = ''
    let drip: NodeJS.Timeout | undefined
    socket.setEncoding('utf8')
    socket.on('connect', () => {
      socket.write(request)
      if (keepSending) drip = setInterval(() => socket.writable && socket.write(keepSending()), 1_000)
    })
    socket.on('data', (chunk: string) => (text += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      clearInterval(drip)
      resolve({ text, openMs: performance.now() - started })
    })
  })
}

describe.each(servers())('V14 Configuration: request targets ($name)', (server) => {
  const host = new URL(server.baseUrl).host

  it.each(['http://evil.example/', 'http://evil.example/admin', `http://${host}/`, 'https://evil.example/api/health'])(
    'answers the absolute-form target %s with 400 {error}, never a redirect',
    async (target) => {
      const { text } = await raw(server, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      const [head = '', body = ''] = text.split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1\.1 400/)
      expect(head).not.toMatch(/\r\nlocation:/i)
      expect(JSON.parse(body.trim().replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0$/, ''))).toHaveProperty('error')
    },
  )

  it('still serves origin-form targets and OPTIONS *', async () => {
    expect((await call(server, 'anonymous', 'GET', '/api/health')).status).toBe(200)
    const { text } = await raw(server, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    expect(text).toMatch(/^HTTP\/1\.1 204/)
    expect(text).toMatch(/\r\nallow: GET/i)
  })
})

// Each server's case waits on its own clock (20-50 s): the servers are tried at the same time.
describe.concurrent('V14 Configuration: slow clients', () => {
  it.each(servers())('closes a connection that trickles its headers within the headers deadline (20 s), not Node’s 60 s ($name)', async (server) => {
    const host = new URL(server.baseUrl).host
    const { text, openMs } = await raw(server, `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n`, { keepSending: () => `X-Slow-${Date.now()}: 1\r\n` })
    expect(text).toMatch(/^HTTP\/1\.1 408|^$/)
    // Node checks deadlines every 30 s (connectionsCheckingInterval): 20 s plus at most one check.
    expect(openMs).toBeLessThan(55_000)
  }, 70_000)
})

describe.each(servers())('V8 Data protection: the health route tells anonymous callers no versions ($name)', (server) => {
  it('answers anonymous callers without the app’s or the broker’s version, and members with them', async () => {
    const anonymous = await (await call(server, 'anonymous', 'GET', '/api/health')).json()
    expect(anonymous).toHaveProperty('database')
    expect(anonymous).not.toHaveProperty('version')
    expect(anonymous.checks.broker).not.toHaveProperty('version')
    const member = await (await call(server, 'viewer', 'GET', '/api/health')).json()
    expect(member.version).toEqual(expect.any(String))
  })
})
