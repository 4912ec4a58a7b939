import 'server-only'

import { env } from '@/env'
import { DEFAULT_DEPTH, DEFAULT_LIMIT, MAX_DEPTH as MAX_DEPTHS, MAX_LIMIT } from './queryCaps'

import { errorResponse } from './errors'
import { enforceRateLimit, type LimitPolicy } from './rateLimit'

/**
 * What one client may ask of Payload's REST and GraphQL APIs together, counted in documents and
 * objects (a GraphQL query's cost, src/server/graphqlDocument.ts; a REST read's limit times its
 * depth), not in requests: a request listing 100 posts spends what 100 single reads spend. The
 * overall ceiling (20 clients' worth) stops rotating addresses from taking the whole process.
 * API_READ_BUDGET raises it where many people share one address (a city hall's NAT).
 */
export const apiReads = (): LimitPolicy => {
  const perClient = env().API_READ_BUDGET
  return { name: 'api-reads', perClient, overall: 20 * perClient, windowSeconds: 10 }
}

/** The members' depth cap, the larger: what a read may cost at most. */
const MAX_DEPTH = MAX_DEPTHS.member

const bounded = (value: string | null, fallback: number, most: number) => {
  const number = value === null ? fallback : Math.floor(Number(value))
  return Number.isFinite(number) && number >= 0 ? Math.min(number, most) : fallback
}

// Two segments (a document by id, a global, `me`, `init`) read one document; anything else under /api/{slug} lists.
const SINGLE_DOCUMENT = /^\/api\/[^/]+\/[^/]+$/

// Files (media, through the image optimizer too) are bytes, not documents: not counted.
const FILE = /^\/api\/[^/]+\/file\//

/** What a REST GET at `url` may read: its page size (or one document) times the levels it populates; 0 for a file. */
export function restReadCost(url: URL): number {
  if (FILE.test(url.pathname)) return 0
  const depth = 1 + bounded(url.searchParams.get('depth'), DEFAULT_DEPTH, MAX_DEPTH)
  if (SINGLE_DOCUMENT.test(url.pathname) && !/\/versions$/.test(url.pathname)) return depth
  const limit = bounded(url.searchParams.get('limit'), DEFAULT_LIMIT, MAX_LIMIT)
  const pageSize = limit === 0 || url.searchParams.get('pagination') === 'false' ? MAX_LIMIT : limit
  return pageSize * depth
}

/** Payload's REST GET handler behind the caller's API read budget: 429 `{error}` with Retry-After past it. */
export function withReadBudget<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    try {
      const cost = restReadCost(new URL(request.url))
      if (cost > 0) await enforceRateLimit(request, apiReads(), cost)
    } catch (error) {
      return errorResponse(error, request)
    }
    return handler(request, ...args)
  }
}
