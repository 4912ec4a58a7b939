import { describe, expect, it } from 'vitest'

import { call, expectRefusal, servers } from './http'

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
