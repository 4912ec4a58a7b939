import type http from 'node:http'

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
