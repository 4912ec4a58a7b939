import { readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { call, expectRefusal, servers } from './http'
import { type AppServer, startAppServer } from './servers'

const directives = (policy: string | null) =>
  new Map((policy ?? '').split(';').map((directive) => directive.trim().split(/\s+/) as [string, ...string[]]).map(([name, ...values]) => [name, values]))

describe.each(servers())('V14 Configuration: a Content-Security-Policy on every answer ($name)', (server) => {
  it('limits scripts to this origin, forbids plugins, foreign bases, form targets and framing by others', async () => {
    for (const route of ['/', '/posts', '/admin', '/api/health', '/api/users']) {
      const response = await call(server, 'anonymous', 'GET', route)
      const policy = directives(response.headers.get('content-security-policy'))
      expect(policy.get('script-src'), route).toEqual(["'self'", "'unsafe-inline'"])
      expect(policy.get('object-src'), route).toEqual(["'none'"])
      expect(policy.get('base-uri'), route).toEqual(["'self'"])
      expect(policy.get('form-action'), route).toEqual(["'self'"])
      expect(policy.get('frame-ancestors'), route).toEqual(["'self'"])
      // MapLibre's worker and canvas images.
      expect(policy.get('worker-src'), route).toContain('blob:')
      expect(policy.get('img-src'), route).toEqual(expect.arrayContaining(['data:', 'blob:']))
    }
    expect(directives((await call(server, 'anonymous', 'GET', '/')).headers.get('content-security-policy')).get('frame-src')).toEqual(["'none'"])
    expect(directives((await call(server, 'anonymous', 'GET', '/admin')).headers.get('content-security-policy')).get('frame-src')).toEqual(["'self'"])
  })

  it('sends no HSTS when the public address is plain http', async () => {
    expect((await call(server, 'anonymous', 'GET', '/')).headers.get('strict-transport-security')).toBeNull()
  })
})

describe.each(servers())('V7 Errors and logging: every error answer carries a request id ($name)', (server) => {
  it('answers refusals with {error, requestId}, the id also in X-Request-Id, and ignores one the client made up', async () => {
    const forged = 'forged-request-id-0001'
    const answers = [
      await call(server, 'anonymous', 'GET', '/api/users', undefined, { 'x-request-id': forged }),
      await call(server, 'anonymous', 'POST', '/api/questions/ask', '{not json', { 'content-type': 'application/json', 'x-request-id': forged }),
      await call(server, 'viewer', 'GET', '/next/preview?path=//evil.example', undefined, { 'x-request-id': forged }),
    ]
    const ids = new Set<string>()
    for (const response of answers) {
      const id = response.headers.get('x-request-id')
      const body = JSON.parse(await expectRefusal(response, [400, 403, 429]))
      expect(body.error).toEqual(expect.any(String))
      expect(body.requestId).toBe(id)
      expect(id).not.toBe(forged)
      ids.add(id as string)
    }
    expect(ids.size).toBe(answers.length)
  })
})

describe('V9 Communication: HSTS and refusal logs on an https deployment', () => {
  let server: AppServer
  const logFile = path.join(os.tmpdir(), `citydash-sec-log-${process.pid}-${Date.now()}.log`)
  beforeAll(async () => {
    server = await startAppServer({
      databaseUri: `file:/tmp/citydash-sec-https-${process.pid}-${Date.now()}.db`,
      brokerUrl: inject('securityBrokerUrl'),
      env: { PUBLIC_SERVER_URL: 'https://dashboard.example.org', LOG_LEVEL: 'info' },
      logFile,
    })
  }, 180_000)
  afterAll(() => {
    server?.stop()
    rmSync(logFile, { force: true })
  })

  it('sends Strict-Transport-Security and upgrade-insecure-requests', async () => {
    for (const route of ['/', '/admin', '/api/health']) {
      const response = await fetch(`${server.baseUrl}${route}`, { redirect: 'manual' })
      expect(response.headers.get('strict-transport-security'), route).toMatch(/^max-age=31536000/)
      expect(response.headers.get('content-security-policy'), route).toContain('upgrade-insecure-requests')
    }
  })

  it('logs expected refusals at info with the request id and no stack trace', async () => {
    const refusals = [
      await fetch(`${server.baseUrl}/api/users`),
      await fetch(`${server.baseUrl}/api/questions/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question": 1}' }),
      await fetch(`${server.baseUrl}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) },
        body: 'x'.repeat(5 * 1024 * 1024),
      }).catch(() => undefined),
    ]
    const ids = refusals.flatMap((response) => (response ? [response.headers.get('x-request-id') as string] : []))
    expect(ids.length).toBeGreaterThanOrEqual(2)
    // Logs are written asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const log = readFileSync(logFile, 'utf8')
    for (const id of ids.slice(0, 2)) expect(log, id).toContain(id)
    expect(log).not.toMatch(/^\s+at \S+/m)
    expect(log).not.toMatch(/"level":50/)
  })
})
