import 'server-only'

import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The layer data routes (features, tiles, history) answer a map's hundreds of requests from memory,
 * yet Next.js's router (routing, tracing, its API wrapper) costs more per request than the route's
 * own work (figures: docs/performance.md). So a Pages API route registers its handler
 * here when Next first loads it, and the server hook (src/server/edge.ts) answers later
 * GET/HEAD requests for that path itself. The first request of each route goes through Next; only
 * Node's request and response are used, exactly as Next hands them over.
 *
 * Kept on globalThis: Next bundles each Pages API route and the instrumentation hook apart.
 */
export type PagesRequest = Pick<IncomingMessage, 'method' | 'url' | 'headers'> & { query: Partial<Record<string, string | string[]>> }
export type PagesHandler = (req: PagesRequest, res: ServerResponse) => Promise<void>

interface DirectRoute {
  template: string
  pattern: RegExp
  params: string[]
  handle: PagesHandler
  methods: readonly string[]
}

const REGISTRY = Symbol.for('citydash.directRoutes')
const registry = (): Map<string, DirectRoute> => (((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map()) as Map<string, DirectRoute>)

// A dynamic segment takes plain ids and numbers only: anything else (encoded, dotted) goes to Next.
const SEGMENT = '([A-Za-z0-9_-]{1,64})'

/**
 * Registers `handle` for `template` (the route file's path: `/api/layers/[id]/features`) and returns it,
 * for the route file's default export. `methods`: GET and HEAD unless the route takes others (a
 * broker's notifications are POSTs; their handler reads the body itself).
 */
export function servedDirectly(template: string, handle: PagesHandler, methods: readonly string[] = ['GET', 'HEAD']): PagesHandler {
  const params = [...template.matchAll(/\[(\w+)\]/g)].map((match) => match[1] as string)
  const source = template
    .split(/\[\w+\]/)
    .map((part) => part.replace(/[.*+?^${}()|\\]/g, '\\$&'))
    .join(SEGMENT)
  registry().set(template, { template, pattern: new RegExp(`^${source}$`), params, handle, methods })
  return handle
}

/** The registered route answering `method` at `url` (GET or HEAD, or what the route registered), with the values of its segments. */
export function directRouteFor(method: string | undefined, url: string | undefined): { handle: PagesHandler; query: Record<string, string> } | undefined {
  if (!method || !url?.startsWith('/api/')) return undefined
  const path = url.split('?', 1)[0] as string
  for (const route of registry().values()) {
    if (!route.methods.includes(method)) continue
    const match = route.pattern.exec(path)
    if (match) return { handle: route.handle, query: Object.fromEntries(route.params.map((name, index) => [name, match[index + 1] as string])) }
  }
  return undefined
}

/** The templates registered so far (tests compare them with the route files). */
export const directRouteTemplates = () => [...registry().keys()]
