import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { handleEndpoints, type SanitizedConfig } from 'payload'

// `never` so a handler typed for its own params (e.g. `{ id: string }`) fits; the matcher supplies them.
export type RouteHandler = (request: Request, context: { params: Promise<never> }) => Promise<Response>

/** `/api/layers/:id/features` → a matcher that returns the params, as Next.js passes them. */
function matcher(pattern: string) {
  const names: string[] = []
  const source = pattern.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))
  const regex = new RegExp(`^${source}$`)
  return (pathname: string) => {
    const match = regex.exec(pathname)
    return match ? Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])])) : undefined
  }
}

/**
 * A real HTTP server for integration tests: the app's own route handlers where a path matches,
 * Payload's REST API (the handler Next.js mounts at /api) for everything else.
 */
export async function startHttpServer(config: SanitizedConfig, routes: Record<string, RouteHandler> = {}) {
  const table = Object.entries(routes).map(([pattern, handler]) => ({ match: matcher(pattern), handler }))
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
      const chunks: Buffer[] = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
      }
      const request = new Request(url, {
        method: incoming.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
      const route = table.map(({ match, handler }) => ({ params: match(url.pathname), handler })).find(({ params }) => params)
      const response = route
        ? await route.handler(request, { params: Promise.resolve(route.params) as Promise<never> })
        : await handleEndpoints({ config, path: url.pathname, request })
      const responseHeaders: Record<string, string | string[]> = Object.fromEntries(response.headers)
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) responseHeaders['set-cookie'] = cookies
      outgoing.writeHead(response.status, responseHeaders)
      outgoing.end(Buffer.from(await response.arrayBuffer()))
    } catch (error) {
      outgoing.writeHead(599, { 'content-type': 'text/plain' })
      outgoing.end(`test server failure: ${String(error)}`)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
