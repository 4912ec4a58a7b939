import { Writable } from 'node:stream'

import { GraphQLError } from 'graphql'
import { Forbidden, UnauthorizedError } from 'payload'
import pino from 'pino'
import { describe, expect, it } from 'vitest'

import { Refusal, quietRefusals } from '@/hooks/refusal'

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

