import { type CollectionBeforeOperationHook, NotFound } from 'payload'

import { Refusal } from '@/utilities/refusal'

/** Most documents one request may list (REST `limit`, GraphQL `limit`); larger asks get this many. */
export const MAX_LIMIT = 100
const MAX_PAGE = 1_000_000
const MAX_NESTING = 32
const LIST_OPERATORS = new Set(['in', 'not_in', 'all'])


function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== 'object') return depth
  let deepest = depth
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, limit, depth + 1))
    if (deepest > limit) break
  }
  return deepest
}

/** `in`, `not_in` and `all` take a list (or a comma-separated string); anything else is a malformed query. */
function malformedWhere(where: unknown): boolean {
  if (where === null || typeof where !== 'object') return false
  return Object.entries(where).some(([key, value]) =>
    LIST_OPERATORS.has(key) ? !(Array.isArray(value) || typeof value === 'string' || typeof value === 'number') : malformedWhere(value),
  )
}

/**
 * Hostile REST and GraphQL input that would otherwise reach the database and come back as a 500:
 * ids that are not ids, huge pages and limits, malformed `where` lists, absurdly nested bodies.
 * Trusted server code (the Local API) is not second-guessed.
 */
export const guardQueryInput: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (req.payloadAPI === 'local') return args
  const input = args as { id?: unknown; limit?: unknown; page?: unknown; where?: unknown; data?: unknown }
  // REST hands the operation an id already passed through parseFloat ("1 OR 1=1" → 1): judge the path's own text.
  const id = typeof req.routeParams?.id === 'string' ? req.routeParams.id : input.id
  if (id !== undefined && id !== null && req.payload.db.defaultIDType === 'number' && !/^\d{1,15}$/.test(String(id))) {
    throw new NotFound(req.t)
  }
  if (operation === 'read') {
    if (input.page !== undefined) {
      const page = Number(input.page)
      if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE) throw new Refusal(`page: a whole number from 1 to ${MAX_PAGE}`)
    }
    if (input.limit !== undefined) {
      const limit = Number(input.limit)
      if (!Number.isFinite(limit) || limit < 0) throw new Refusal('limit: a number of documents from 1')
      // 0 would mean "no limit" to Payload.
      input.limit = limit === 0 ? MAX_LIMIT : Math.min(Math.floor(limit), MAX_LIMIT)
    }
  }
  if (depthOf(input.where, MAX_NESTING) > MAX_NESTING || malformedWhere(input.where)) throw new Refusal('where: a malformed query')
  if (depthOf(input.data, MAX_NESTING) > MAX_NESTING) throw new Refusal(`The body nests deeper than ${MAX_NESTING} levels`)
  return args
}
