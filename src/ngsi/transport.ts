// How requests reach the broker: one GET, its body read whole as bytes. undici's request() rather
// than fetch(): a 50,000-entity layer is 22 MB of JSON in 50 pages, and fetch's web streams spent
// about 170 ms of CPU per load reading them, request() about 100 (measured on the demo broker).
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
}

export type BrokerTransport = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<BrokerAnswer>

// Keep-alive connections to the broker, shared by every client of the process.
const agent = new Agent({ keepAliveTimeout: 10_000, maxResponseSize: MAX_ANSWER_BYTES })

/**
 * The default transport. Redirects are not followed (the caller makes a 3xx an error): the bearer
 * token and tenant header never go to an address the broker names.
 */
export const undiciTransport: BrokerTransport = async (url, { headers, signal }) => {
  const chunks: Buffer[] = []
  let response: Awaited<ReturnType<typeof request>>
  try {
    response = await request(url, { method: 'GET', headers, signal, dispatcher: agent })
    for await (const chunk of response.body) chunks.push(chunk as Buffer)
  } catch (error) {
    if (!(error instanceof errors.ResponseExceededMaxSizeError)) throw error
    throw new NgsiError('invalid-response', `The broker's answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`, { cause: error })
  }
  const answerHeaders = new Headers()
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return { status: response.statusCode, statusText: STATUS_CODES[response.statusCode] ?? '', headers: answerHeaders, body: Buffer.concat(chunks) }
}
