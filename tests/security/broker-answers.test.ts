import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterEach, describe, expect, it } from 'vitest'

import { MAX_ANSWER_BYTES, NgsiClient, NgsiError } from '@/ngsi'

const MB = 1024 * 1024
/** What a hostile or broken broker offers: far past the cap. */
const OFFERED_BYTES = 1024 * MB

interface HugeBroker {
  url: string
  requests: number
  /** Bytes written before the client hung up. */
  sent: () => number
  close: () => Promise<void>
}

/** A "broker" that answers every request with an endless JSON array, generated as the socket takes it. */
async function hugeBroker(declareLength: boolean): Promise<HugeBroker> {
  let requests = 0
  let sent = 0
  const server = http.createServer((_request, response) => {
    requests++
    response.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(OFFERED_BYTES) } : {}) })
    const chunk = Buffer.from(`${'{"id":"urn:ngsi-ld:Thing:x","type":"Thing"},'.repeat(1500)}`)
    response.write('[')
    const pump = () => {
      while (sent < OFFERED_BYTES && !response.destroyed) {
        sent += chunk.byteLength
        if (!response.write(chunk)) return void response.once('drain', pump)
      }
      if (!response.destroyed) response.end()
    }
    pump()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests
    },
    sent: () => sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let broker: HugeBroker | undefined
afterEach(async () => {
  await broker?.close()
  broker = undefined
})

describe('V12 Resources: a broker answer is read with a size cap, never held whole', () => {
  it.each([
    ['streamed without a length', false],
    ['announced with a huge Content-Length', true],
  ])('%s: refused as invalid-response, not retried, reading stops past the cap', async (_label, declareLength) => {
    broker = await hugeBroker(declareLength)
    const client = new NgsiClient({ brokerUrl: broker.url, retries: 2, timeoutMs: 30_000 })
    const error = await client.queryEntities({ type: 'Thing' }).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(NgsiError)
    expect((error as NgsiError).kind).toBe('invalid-response')
    expect((error as NgsiError).message).toMatch(/larger than 64 MB/)
    // A refusal, not a network fault: one request, no retries.
    expect(broker.requests).toBe(1)
    // The client hung up soon after the cap (socket buffers aside), not at the end of the offer.
    expect(broker.sent()).toBeLessThan(MAX_ANSWER_BYTES + 64 * MB)
  })
})
