import http from 'node:http'
import type { AddressInfo } from 'node:net'

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length'])

export interface RecordedBrokerRequest {
  method: string
  url: URL
  headers: http.IncomingHttpHeaders
}

/**
 * Sits between the app and the demo broker and records every request, so tests can count broker
 * fetches and inspect exactly what reached the broker. `down` refuses connections as a dead host would;
 * `setRefusal` makes it a broker without some API; `setHold` keeps some requests waiting until `release`.
 */
export async function startCountingProxy(target: string) {
  const requests: RecordedBrokerRequest[] = []
  let down = false
  let refuse: ((url: URL) => boolean) | undefined
  let hold: ((method: string, url: URL) => boolean) | undefined
  const held: (() => void)[] = []
  const server = http.createServer(async (incoming, outgoing) => {
    if (down) return incoming.socket.destroy()
    const url = new URL(incoming.url ?? '/', target)
    requests.push({ method: incoming.method ?? 'GET', url, headers: incoming.headers })
    if (hold?.(incoming.method ?? 'GET', url)) await new Promise<void>((resolve) => held.push(resolve))
    if (refuse?.(url)) {
      outgoing.writeHead(501, { 'content-type': 'application/json' })
      outgoing.end(JSON.stringify({ type: 'https://uri.etsi.org/ngsi-ld/errors/OperationNotSupported', title: 'Operation not supported', detail: url.pathname }))
      return
    }
    const headers = Object.fromEntries(
      // Hop-by-hop headers stay on this hop (fetch refuses some of them).
      Object.entries(incoming.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !HOP_BY_HOP.has(entry[0])),
    )
    try {
      // Writes (subscriptions, updates) carry a body: passed on as it came.
      const chunks: Buffer[] = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const requestBody = chunks.length > 0 ? Buffer.concat(chunks) : undefined
      const answer = await fetch(url, { method: incoming.method, headers, body: requestBody })
      const body = Buffer.from(await answer.arrayBuffer())
      const forwarded = Object.fromEntries([...answer.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name)))
      outgoing.writeHead(answer.status, forwarded)
      outgoing.end(body)
    } catch {
      incoming.socket.destroy()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    entityRequests: () => requests.filter((request) => request.url.pathname === '/ngsi-ld/v1/entities'),
    setDown(value: boolean) {
      down = value
    },
    /** Requests `predicate` picks answer 501 OperationNotSupported, as a broker lacking that feature does. */
    setRefusal(predicate: ((url: URL) => boolean) | undefined) {
      refuse = predicate
    },
    /** Requests `predicate` picks wait (unanswered, not yet passed on) until `release`: a broker slow at that one thing. */
    setHold(predicate: ((method: string, url: URL) => boolean) | undefined) {
      hold = predicate
    },
    /** How many requests wait. */
    held: () => held.length,
    /** Passes the waiting requests on to the broker. */
    release() {
      for (const resume of held.splice(0)) resume()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type CountingProxy = Awaited<ReturnType<typeof startCountingProxy>>
