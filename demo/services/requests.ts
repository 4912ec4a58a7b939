import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a stand-in service remembers of each request it served (tests read it). */
export type RecordedRequest = {
  method: string
  path: string
  query: Record<string, string>
  headers: http.IncomingHttpHeaders
}

/** The request's URL and its record. */
export function recordOf(request: http.IncomingMessage): { url: URL; record: RecordedRequest } {
  const url = new URL(request.url ?? '/', 'http://fake.invalid')
  return {
    url,
    record: { method: request.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers },
  }
}

/** Writes a JSON answer on `response`. */
export const jsonWriter =
  (response: http.ServerResponse) =>
  (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    response.end(JSON.stringify(body))
  }

/** One request as a stand-in's handler sees it. */
export interface Exchange {
  request: http.IncomingMessage
  response: http.ServerResponse
  url: URL
  json: ReturnType<typeof jsonWriter>
  /** Runs `run` after `ms` (slow modes); `close` cancels what is still waiting. */
  later(ms: number, run: () => void): void
}

/** A stand-in service on a free loopback port that records each request and hands it to `handle`. */
export async function startStandIn(handle: (exchange: Exchange) => void) {
  const timers = new Set<NodeJS.Timeout>()
  const requests: RecordedRequest[] = []
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      run()
    }, ms)
    timers.add(timer)
  }
  const server = http.createServer((request, response) => {
    const { url, record } = recordOf(request)
    requests.push(record)
    handle({ request, response, url, json: jsonWriter(response), later })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
