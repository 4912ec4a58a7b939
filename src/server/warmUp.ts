import 'server-only'

import pLimit from 'p-limit'

/**
 * A route's code loads on its first request (next.config.mjs: `preloadEntriesOnStart: false`, for
 * idle memory) and pages rendered at run time are kept in memory only, so after every start or
 * deploy the first citizen would wait for all of that. The server asks itself for what a citizen's
 * first visit needs before it calls itself ready (`/api/health` says "starting" until then): the
 * home page (which also loads its layers' data), the pages it links to, and the data routes.
 * The admin stays lazy.
 */

const READINESS = Symbol.for('citydash.readiness')
type Readiness = { ready: boolean }
// On globalThis: the instrumentation hook and the health route are bundled apart.
const readiness = (): Readiness => ((globalThis as Record<symbol, unknown>)[READINESS] ??= { ready: true }) as Readiness

/** False while the server warms up after a start. */
export const isReady = () => readiness().ready

/** The cheapest Payload REST route anyone may call: whether the site has its first account. */
export const JOB_RUNNERS_ROUTE = '/api/users/init'
/**
 * The data routes a map asks for: an unknown layer loads each layer route's code and answers 404;
 * a basemap tile also builds the bundled basemap's tile index.
 */
const DATA_ROUTES = ['/api/layers/0/features', '/api/layers/0/preview', '/api/layers/0/history', '/api/layers/0/tiles/0/0/0', '/basemap/tiles/0/0/0']
const MAX_LINKED_PAGES = 20
/** Two at a time: the server's one thread renders them, and real visitors may already be arriving. */
const CONCURRENCY = 2
const NOT_PAGES = /^\/(?:_next|api|admin|next|vendor|basemap)(?:\/|$)|\.[a-z0-9]+$/i

/** The site's own page paths linked from `html` (no assets, API, admin or preview routes), each once. */
export function linkedPagePaths(html: string): string[] {
  const paths = new Set<string>()
  for (const [, href] of html.matchAll(/<a\b[^>]*\shref="(\/[^"#?]*)[^"]*"/gi)) {
    if (!href || href.startsWith('//') || NOT_PAGES.test(href)) continue
    paths.add(href)
  }
  return [...paths]
}

async function get(url: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal, headers: { 'Accept-Encoding': 'identity' } })
  return response.text()
}

/** `/` once the server listens (the hook may run before Next has bound its port). */
async function homePage(origin: string, signal: AbortSignal): Promise<string> {
  for (;;) {
    try {
      return await get(`${origin}/`, signal)
    } catch (error) {
      if (signal.aborted) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/**
 * Warms what citizens' first visits need, then marks the server ready. Never fails: whatever is not
 * warm within `deadlineMs` loads on its first request, as it would have without this.
 */
export async function warmUp(origin: string, { deadlineMs = 30_000 }: { deadlineMs?: number } = {}): Promise<void> {
  readiness().ready = false
  const signal = AbortSignal.timeout(deadlineMs)
  try {
    const home = await homePage(origin, signal)
    // A Payload REST route starts Payload with its job runners (Payload's REST and admin start them,
    // not the site's Local API): mail and scheduled jobs leave from the start, not once someone opens
    // the admin (cached pages never start Payload).
    await get(`${origin}${JOB_RUNNERS_ROUTE}`, signal).catch(() => undefined)
    const limit = pLimit(CONCURRENCY)
    const paths = [...DATA_ROUTES, ...linkedPagePaths(home).filter((path) => path !== '/').slice(0, MAX_LINKED_PAGES)]
    await Promise.allSettled(paths.map((path) => limit(() => get(`${origin}${path}`, signal))))
    // Asked again with Payload surely started: getPayload starts no job runners when it is called
    // while another caller's start is still in flight (a prerendered page revalidating in the
    // background, say), and a later call starts them only if one comes. Without this, a server that
    // nobody signs in to sent no mail at all (tests/security/alert-notices.test.ts, "freshly started").
    await get(`${origin}${JOB_RUNNERS_ROUTE}`, signal).catch(() => undefined)
  } catch {
    // Past the deadline: the rest warms on first use.
  } finally {
    readiness().ready = true
  }
}
