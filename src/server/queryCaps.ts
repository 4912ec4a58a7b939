// How much one request may ask Payload for: the caps the REST guard applies and the GraphQL and
// read-budget costs count with. Pure: no Payload, so the document measure can import it too.

/** Most documents one request may list (REST `limit`, GraphQL `limit`); larger asks get this many. */
export const MAX_LIMIT = 100

/**
 * The most an anonymous request lists: 100 posts read at depth 2 in every locale held the event
 * loop ~60 ms (bench/graphql.ts), 50 about half; members (the admin's 100 per page) keep MAX_LIMIT.
 */
export const MAX_ANONYMOUS_LIMIT = 50

/**
 * What one GraphQL operation may cost (src/server/graphqlDocument.ts counts it), by caller: a
 * query of cost ~850 (100 posts with their categories and 50 layers) held the event loop ~150 ms,
 * so an anonymous one may cost a quarter of a member's.
 */
export const MAX_GRAPHQL_COST = { anonymous: 250, member: 1_000 } as const

/** Payload's page size when a request names none. */
export const DEFAULT_LIMIT = 10

/**
 * How deep a REST read may populate relations, by caller: each level can multiply the documents
 * read by up to MAX_LIMIT. Deeper asks get this depth; Payload's default (2) is within both.
 */
export const MAX_DEPTH = { anonymous: 2, member: 3 } as const

/** Payload's depth when a request names none. */
export const DEFAULT_DEPTH = 2
