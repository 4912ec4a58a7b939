import {
  buildVersionCollectionFields,
  type CollectionBeforeOperationHook,
  type CollectionSlug,
  type FlattenedBlock,
  type FlattenedField,
  NotFound,
  type Payload,
} from 'payload'

import { Refusal } from '@/hooks/refusal'

import type { QueryableCollection, QuerySchema } from './queryTargets'
import { MAX_ANONYMOUS_LIMIT, MAX_DEPTH, MAX_LIMIT } from '@/server/queryCaps'
import { containsNul, MAX_NUMERIC_ID, whereProblem } from './whereQuery'

const MAX_PAGE = 1_000_000
const MAX_NESTING = 32

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== 'object') return depth
  let deepest = depth
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, limit, depth + 1))
    if (deepest > limit) break
  }
  return deepest
}

/**
 * One collection as queries see it. With versions it also answers its versions' paths
 * (`version.title`, `parent`, `latest`): `findVersions` runs this hook as a `read` too, with
 * nothing to tell it from `find`.
 */
function queryableCollection(payload: Payload, slug: string): QueryableCollection | undefined {
  const collection = payload.collections[slug as CollectionSlug]
  if (!collection) return undefined
  const own = collection.config.flattenedFields
  const versionFields = collection.config.versions ? (buildVersionCollectionFields(payload.config, collection.config, true) as FlattenedField[]) : []
  return {
    fields: [...own, ...versionFields.filter(({ name }) => !own.some((field) => field.name === name))],
    idType: collection.customIDType ?? (payload.db.defaultIDType === 'number' ? 'number' : 'text'),
  }
}

type PayloadQueries = { schema: QuerySchema; unsupportedOperators: ReadonlySet<string> }
const queriesOf = new WeakMap<Payload, PayloadQueries>()

/** The collections and blocks as queries see them, built once per Payload instance. */
function payloadQueries(payload: Payload): PayloadQueries {
  const known = queriesOf.get(payload)
  if (known) return known
  const collections = new Map<string, QueryableCollection | undefined>()
  const schema: QuerySchema = {
    collection(slug) {
      if (!collections.has(slug)) collections.set(slug, queryableCollection(payload, slug))
      return collections.get(slug)
    },
    block: (slug) => (payload.blocks as Record<string, FlattenedBlock | undefined>)[slug],
  }
  // Payload's SQL adapters have no `all` (a TypeError, answered 500); MongoDB has.
  const operators = (payload.db as { operators?: Record<string, unknown> }).operators
  const queries = { schema, unsupportedOperators: new Set(operators && !('all' in operators) ? ['all'] : []) }
  queriesOf.set(payload, queries)
  return queries
}

/**
 * Hostile REST and GraphQL input that would otherwise reach the database and come back as a 500:
 * ids that are not ids, huge pages and limits, `where` queries whose operators or values do not
 * suit their fields (see whereQuery.ts), NUL characters, absurdly nested bodies.
 * Trusted server code (the Local API) is not second-guessed.
 */
export const guardQueryInput: CollectionBeforeOperationHook = ({ args, collection, operation, req }) => {
  if (req.payloadAPI === 'local') return args
  const input = args as { id?: unknown; limit?: unknown; page?: unknown; pagination?: unknown; depth?: unknown; where?: unknown; data?: unknown }
  // REST hands the operation an id already passed through parseFloat ("1 OR 1=1" → 1): judge the path's own text.
  const id = typeof req.routeParams?.id === 'string' ? req.routeParams.id : input.id
  if (id !== undefined && id !== null && req.payload.db.defaultIDType === 'number' && !(/^\d{1,10}$/.test(String(id)) && Number(id) <= MAX_NUMERIC_ID)) {
    throw new NotFound(req.t)
  }
  if (operation === 'read') {
    if (input.page !== undefined) {
      const page = Number(input.page)
      if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE) throw new Refusal(`page: a whole number from 1 to ${MAX_PAGE}`)
    }
    const mostListed = req.user ? MAX_LIMIT : MAX_ANONYMOUS_LIMIT
    if (input.limit !== undefined) {
      const limit = Number(input.limit)
      if (!Number.isFinite(limit) || limit < 0) throw new Refusal('limit: a number of documents from 1')
      // 0 would mean "no limit" to Payload.
      input.limit = limit === 0 ? mostListed : Math.min(Math.floor(limit), mostListed)
    }
    // Without pagination Payload lists every document unless a limit is given.
    if (input.pagination === false && input.limit === undefined) input.limit = mostListed
    if (input.depth !== undefined) {
      const most = req.user ? MAX_DEPTH.member : MAX_DEPTH.anonymous
      const depth = Number(input.depth)
      input.depth = Number.isFinite(depth) && depth >= 0 ? Math.min(Math.floor(depth), most) : 0
    }
  }
  if (input.where !== undefined && input.where !== null) {
    if (depthOf(input.where, MAX_NESTING) > MAX_NESTING) throw new Refusal(`where: nested deeper than ${MAX_NESTING} levels`)
    const { schema, unsupportedOperators } = payloadQueries(req.payload)
    const own = schema.collection(collection.slug)
    const problem = own && whereProblem(input.where, own, schema, unsupportedOperators)
    if (problem) throw new Refusal(problem)
  }
  if (depthOf(input.data, MAX_NESTING) > MAX_NESTING) throw new Refusal(`The body nests deeper than ${MAX_NESTING} levels`)
  // PostgreSQL refuses NUL in text columns (a 500 at insert).
  if (containsNul(input.data)) throw new Refusal('The body contains a NUL character')
  return args
}
