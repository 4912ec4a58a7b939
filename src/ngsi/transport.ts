// How requests reach the broker: one GET, its body read whole as bytes, into reused buffers.
// undici's request() rather than fetch(): a 50,000-entity layer is 22 MB of JSON in 50 pages, and
// fetch's web streams spent about 170 ms of CPU per load reading them, request() about 100
// (measured on the demo broker).
import { STATUS_CODES } from 'node:http'

import { Agent, errors, request } from 'undici'

import { NgsiError } from './errors'

/**
 * The largest broker answer read (a page of 1,000 entities is ~0.5 MB). A broker, or whatever
 * answers at its address, that sends more is refused as it streams: the body is never held whole.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** A broker's answer, its body read whole (bytes: parseJsonBytes reads a large one without one huge string). */
export interface BrokerAnswer {
  status: number
  statusText: string
  headers: Headers
  body: Buffer
  /**
   * Gives the body's bytes back for a later answer once they have been read (see `readBody`):
   * `body` must not be read after it. Calling it again does nothing; not calling it only costs
   * the reuse.
   */
  release?: () => void
}

export type BrokerTransport = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<BrokerAnswer>

// Keep-alive connections to the broker, shared by every client of the process.
const agent = new Agent({ keepAliveTimeout: 10_000, maxResponseSize: MAX_ANSWER_BYTES })

/**
 * Bytes that broker answers are read into, used again once an answer has been read. A cold load
 * of a 50,000-entity layer is 22 MB of answers; read into fresh buffers, each waited for its turn
 * long enough to outlive the young generation, and that much external memory made V8 mark the
 * whole heap (Next and Payload included) about once per load: ~300 ms of CPU on a 2-core host.
 * An answer larger than one buffer (a page of 1,000 entities with a few attributes is ~0.5 MB) is
 * read the ordinary way. At most MAX_SPARE_BUFFERS wait unused (a few loads' pages in flight).
 */
const ANSWER_BUFFER_BYTES = 1024 * 1024
const MAX_SPARE_BUFFERS = 8
const spareBuffers: Buffer[] = []

function giveBack(buffer: Buffer) {
  if (spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(buffer)
}

/**
 * The body of an answer as it streams in, copied into a reusable buffer (each network chunk dies
 * at once instead of waiting for the whole answer); `release` hands the buffer back.
 */
export async function readBody(chunks: AsyncIterable<Buffer>): Promise<Pick<BrokerAnswer, 'body' | 'release'>> {
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(ANSWER_BUFFER_BYTES)
  let filled = 0
  let overflow: Buffer[] | undefined
  try {
    for await (const chunk of chunks) {
      if (overflow) overflow.push(chunk)
      else if (filled + chunk.length <= buffer.length) filled += chunk.copy(buffer, filled)
      else overflow = [buffer.subarray(0, filled), chunk]
    }
  } catch (error) {
    giveBack(buffer)
    throw error
  }
  if (overflow) {
    const body = Buffer.concat(overflow)
    giveBack(buffer)
    return { body }
  }
  let held = true
  const release = () => {
    if (held) giveBack(buffer)
    held = false
  }
  return { body: buffer.subarray(0, filled), release }
}

/**
 * The default transport. Redirects are not followed (the caller makes a 3xx an error): the bearer
 * token and tenant header never go to an address the broker names.
 */
export const undiciTransport: BrokerTransport = async (url, { headers, signal }) => {
  let response: Awaited<ReturnType<typeof request>>
  let body: Awaited<ReturnType<typeof readBody>>
  try {
    response = await request(url, { method: 'GET', headers, signal, dispatcher: agent })
    body = await readBody(response.body as AsyncIterable<Buffer>)
  } catch (error) {
    if (!(error instanceof errors.ResponseExceededMaxSizeError)) throw error
    throw new NgsiError('invalid-response', `The broker's answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`, { cause: error })
  }
  const answerHeaders = new Headers()
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return { status: response.statusCode, statusText: STATUS_CODES[response.statusCode] ?? '', headers: answerHeaders, ...body }
}
