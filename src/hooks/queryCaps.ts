// How much one request may ask Payload for: the caps the REST guard applies and the GraphQL and
// read-budget costs count with. Pure: no Payload, so the document measure can import it too.

/** Most documents one request may list (REST `limit`, GraphQL `limit`); larger asks get this many. */
export const MAX_LIMIT = 100

/** Payload's page size when a request names none. */
export const DEFAULT_LIMIT = 10

/**
 * How deep a REST read may populate relations, by caller: each level can multiply the documents
 * read by up to MAX_LIMIT. Deeper asks get this depth; Payload's default (2) is within both.
 */
export const MAX_DEPTH = { anonymous: 2, member: 3 } as const

/** Payload's depth when a request names none. */
export const DEFAULT_DEPTH = 2
