// How requests reach the broker: one GET, its body read whole as bytes. undici's request() rather
// than fetch(): a 50,000-entity layer is 22 MB of JSON in 50 pages, and fetch's web streams spent
// about 170 ms of CPU per load reading them, request() about 100 (measured on the demo broker).
import { STATUS_CODES } from 'node:http'

import { Agent, request } from 'undici'

/** A broker's answer, its body read whole (bytes: parseJsonBytes reads a large one without one huge string). */
export interface BrokerAnswer {
  status: number
  statusText: string
  headers: Headers
  body: Buffer
}

export type BrokerTransport = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<BrokerAnswer>

// Keep-alive connections to the broker, shared by every client of the process.
const agent = new Agent({ keepAliveTimeout: 10_000 })

/**
 * The default transport. Redirects are not followed (the caller makes a 3xx an error): the bearer
 * token and tenant header never go to an address the broker names.
 */
export const undiciTransport: BrokerTransport = async (url, { headers, signal }) => {
  const response = await request(url, { method: 'GET', headers, signal, dispatcher: agent })
  const chunks: Buffer[] = []
  for await (const chunk of response.body) chunks.push(chunk as Buffer)
  const answerHeaders = new Headers()
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return { status: response.statusCode, statusText: STATUS_CODES[response.statusCode] ?? '', headers: answerHeaders, body: Buffer.concat(chunks) }
}
