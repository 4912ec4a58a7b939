import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'

import { GraphQLError } from 'graphql'
import { APIError, Forbidden, UnauthorizedError } from 'payload'
import pino from 'pino'
import { describe, expect, it } from 'vitest'

import { Refusal, quietRefusals } from '@/hooks/refusal'
import { runWithRequestContext } from '@/server/requestContext'

import { servers } from './http'

/** A pino logger with the project's hook, and the lines it wrote. */
function logger() {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>)
      done()
    },
  })
  return { log: pino({ hooks: { logMethod: quietRefusals } }, sink), lines }
}

describe('V7 Logging: a refusal that Payload logs by hand (admin server functions) stays at info without a stack', () => {
  it('logs a refusal caught and logged at error level (Payload admin server functions) at info, without a stack', () => {
    const { log, lines } = logger()
    log.error({ err: new UnauthorizedError(), requestId: 'r-1' }, 'There was an error building form state')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 30, refusal: 'UnauthorizedError', requestId: 'r-1', msg: expect.stringMatching(/^There was an error building form state: Unauthorized/) })
    expect(JSON.stringify(lines[0])).not.toMatch(/stack|at \w+ \(/)
  })

  it('keeps a real fault at error level with its stack, and leaves other lines alone', () => {
    const { log, lines } = logger()
    log.error({ err: new TypeError('x is undefined') }, 'There was an error building form state')
    log.warn('disk almost full')
    expect(lines[0]).toMatchObject({ level: 50, msg: 'There was an error building form state', err: { type: 'TypeError', stack: expect.stringContaining('TypeError: x is undefined') } })
    expect(lines[1]).toMatchObject({ level: 40, msg: 'disk almost full' })
  })
})

describe('V7 Logging: GraphQL refusals stay at info without a stack, as REST ones do', () => {
  // What Payload's GraphQL handler does with every error of an answer: logger.error({ err }).
  const wrapped = (original?: Error) => new GraphQLError(original?.message ?? 'Cannot query field "nope" on type "Query".', { originalError: original })

  it.each([
    ['a 403', wrapped(new Forbidden())],
    ['a 429 of the sign-in guard', wrapped(new Refusal('Too many attempts; try again later', 429))],
    ['a 401', wrapped(new UnauthorizedError())],
    ['a validation error (no original error)', wrapped()],
  ])('logs %s at info, message only', (_name, err) => {
    const { log, lines } = logger()
    log.error({ err })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 30, msg: err.message })
    expect(JSON.stringify(lines[0])).not.toMatch(/stack|at \w+ \(/)
  })

  it('keeps a fault inside a GraphQL answer at error level with its stack', () => {
    const { log, lines } = logger()
    log.error({ err: wrapped(new TypeError('resolver broke')) })
    expect(lines[0]).toMatchObject({ level: 50, err: { stack: expect.stringContaining('resolver broke') } })
  })
})


describe('V7 Logging: client errors Payload logs at error level itself stay at info without a stack', () => {
  it.each([
    ['a missing version id', new APIError('Missing ID of version.', 400)],
    ['an invalid or expired reset token', new APIError('Token is either invalid or has expired.', 403)],
    ['a 404 of a route of its own', new APIError('Not Found', 404)],
  ])('logs %s at info, message only', (_name, err) => {
    const { log, lines } = logger()
    log.error({ err })
    expect(lines[0]).toMatchObject({ level: 30, msg: err.message })
    expect(JSON.stringify(lines[0])).not.toMatch(/stack|at \w+ \(/)
  })

  it.each([
    ['a where that is not JSON', '/api/posts?where=not-json', undefined],
    ['a data parameter that is not JSON', '/api/posts?data={', undefined],
    ['a form whose _payload is not JSON', '/api/media', 'multipart/form-data; boundary=x'],
  ])('logs %s, in the request that sent it, at info', (_name, target, contentType) => {
    const { log, lines } = logger()
    runWithRequestContext({ requestId: 'r-2', target, contentType }, () => log.error({ err: new SyntaxError('Unexpected token o in JSON at position 1') }))
    expect(lines[0]).toMatchObject({ level: 30, refusal: 'Refusal' })
    expect(JSON.stringify(lines[0])).not.toMatch(/stack|at \w+ \(/)
  })

  it('keeps the same SyntaxError outside such a request, and a 5xx APIError, at error level with the stack', () => {
    const { log, lines } = logger()
    runWithRequestContext({ requestId: 'r-3', target: '/api/posts?where[title][equals]=x' }, () => log.error({ err: new SyntaxError('Unexpected end of JSON input') }))
    log.error({ err: new SyntaxError('Unexpected end of JSON input') })
    log.error({ err: new APIError('Something went wrong.', 500) })
    expect(lines.map((line) => line.level)).toEqual([50, 50, 50])
    expect(JSON.stringify(lines)).toMatch(/stack/)
  })
})

describe('V7 Logging: the production server logs client errors as refusals, not as errors with stacks', () => {
  it('writes no error line for a where that is not JSON, an invalid reset token, a missing document or a broken form', async () => {
    const server = servers().find((candidate) => candidate.logFile)!
    const requests: [string, RequestInit][] = [
      ['/api/posts?where=not-json', {}],
      ['/api/posts?data={', {}],
      ['/api/users/reset-password', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'x'.repeat(40), password: 'a-long-enough-passphrase-2026' }) }],
      ['/api/posts/999999999', {}],
      ['/api/media', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `JWT ${server.tokens.editor}` }, body: '--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n{nope\r\n--x--\r\n' }],
    ]
    const ids: string[] = []
    for (const [route, init] of requests) {
      const response = await fetch(`${server.baseUrl}${route}`, init)
      expect(response.status, route).toBeGreaterThanOrEqual(400)
      expect(response.status, route).toBeLessThan(500)
      ids.push(response.headers.get('x-request-id')!)
    }
    // Written by then: pino writes each line as it is logged.
    const errors = readFileSync(server.logFile!, 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { level: number; requestId?: string }]
        } catch {
          return []
        }
      })
      .filter((line) => line.level >= 50 && ids.includes(line.requestId ?? ''))
    expect(errors).toEqual([])
  })
})
