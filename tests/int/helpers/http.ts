import { existsSync, readdirSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

import { handleEndpoints, type SanitizedConfig } from 'payload'

import { PEER_ADDRESS_HEADER } from '@/server/requestContext'

// `never` so a handler typed for its own params (e.g. `{ id: string }`) fits; the matcher supplies them.
export type RouteHandler = (request: Request, context: { params: Promise<never> }) => Promise<Response>

/** A Pages API route that uses only Node's request/response; `query` holds the search and path params, as in Next. */
export type NodeRouteHandler = (request: http.IncomingMessage & { query: Record<string, string> }, response: http.ServerResponse) => Promise<void>

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

// Like Next's sendResponse: these never pass from a route handler's Response to the client.
const DROPPED_BY_NEXT = new Set(['content-length', 'content-encoding', 'transfer-encoding'])

/** A port free right now on the loopback (for a server whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = http.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/** A path the app serves (`:name` for a dynamic segment), e.g. /api/layers/:id/features. */
export type AppRoute = `/api/${string}`

const APP_DIR = path.join(import.meta.dirname, '..', '..', '..', 'src', 'app')
const PAGES_DIR = path.join(import.meta.dirname, '..', '..', '..', 'src', 'pages')

/**
 * The file Next serves `route` from (`:name` stands for a dynamic segment, `[name]` in the file's
 * path): a Pages API route, or an App Router route handler, in a route group such as (payload) too.
 */
function routeFile(route: AppRoute): { file: string; pagesApi: boolean } {
  const segments = route.replace(/:(\w+)/g, '[$1]')
  const pagesApi = path.join(PAGES_DIR, `${segments}.ts`)
  if (existsSync(pagesApi)) return { file: pagesApi, pagesApi: true }
  const groups = readdirSync(APP_DIR).filter((name) => name.startsWith('('))
  const file = ['', ...groups].map((group) => path.join(APP_DIR, group, segments, 'route.ts')).find(existsSync)
  if (!file) throw new Error(`no route of the app serves ${route}`)
  return { file, pagesApi: false }
}

/**
 * The app's own handlers of `routes` (paths as Next serves them), as `startHttpServer` takes them:
 * a Pages API route's handler, or an App Router route's POST (else GET) handler. Imported now, so
 * after the settings the config and env() read on first import.
 */
export async function appRoutes(routes: readonly AppRoute[]) {
  const handlers: Record<string, RouteHandler> = {}
  const nodeHandlers: Record<string, NodeRouteHandler> = {}
  for (const route of routes) {
    const { file, pagesApi } = routeFile(route)
    const exported = (await import(file)) as { default?: NodeRouteHandler; POST?: RouteHandler; GET?: RouteHandler }
    const handler = pagesApi ? exported.default : (exported.POST ?? exported.GET)
    if (!handler) throw new Error(`${file} exports no handler for ${route}`)
    if (pagesApi) nodeHandlers[route] = handler as NodeRouteHandler
    else handlers[route] = handler as RouteHandler
  }
  return { routes: handlers, nodeRoutes: nodeHandlers }
}

/**
 * A real HTTP server for integration tests: the app's own route handlers where a path matches,
 * Payload's REST API (the handler Next.js mounts at /api) for everything else, without the headers
 * Next drops, as `next start` does (the server hook's own headers are tested on the production build).
 */
export async function startHttpServer(
  config: SanitizedConfig,
  routes: Record<string, RouteHandler> = {},
  nodeRoutes: Record<string, NodeRouteHandler> = {},
  /** A port chosen beforehand (e.g. one the settings already name); any free one by default. */
  { port: wantedPort = 0 }: { port?: number } = {},
) {
  const table = Object.entries(routes).map(([pattern, handler]) => ({ match: matcher(pattern), handler }))
  const nodeTable = Object.entries(nodeRoutes).map(([pattern, handler]) => ({ match: matcher(pattern), handler }))
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
      const nodeRoute = nodeTable.map(({ match, handler }) => ({ params: match(url.pathname), handler })).find(({ params }) => params)
      if (nodeRoute) {
        await nodeRoute.handler(Object.assign(incoming, { query: { ...Object.fromEntries(url.searchParams), ...nodeRoute.params } }), outgoing)
        return
      }
      const chunks: Buffer[] = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
      }
      // As the server hook does in production (src/server/edge.ts): the socket's address, never the client's word.
      headers.set(PEER_ADDRESS_HEADER, incoming.socket.remoteAddress ?? '')
      const request = new Request(url, {
        method: incoming.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
      const route = table.map(({ match, handler }) => ({ params: match(url.pathname), handler })).find(({ params }) => params)
      const response = route
        ? await route.handler(request, { params: Promise.resolve(route.params) as Promise<never> })
        : await handleEndpoints({ config, path: url.pathname, request })
      const responseHeaders: Record<string, string | string[]> = {}
      for (const [name, value] of response.headers) if (!DROPPED_BY_NEXT.has(name)) responseHeaders[name] = value
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) responseHeaders['set-cookie'] = cookies
      outgoing.writeHead(response.status, responseHeaders)
      outgoing.end(Buffer.from(await response.arrayBuffer()))
    } catch (error) {
      outgoing.writeHead(599, { 'content-type': 'text/plain' })
      outgoing.end(`test server failure: ${String(error)}`)
    }
  })
  await new Promise<void>((resolve) => server.listen(wantedPort, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
