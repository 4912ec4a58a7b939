/**
 * GraphQL reads with malformed where arguments (an id that is none, an object for an id, a NUL in a
 * string): the query guard refuses each with status 400, in the integration tests and on the production build.
 */
export const MALFORMED_GRAPHQL_WHERE = [
  ['{ Posts(where: { categories: { in: ["abc"] } }) { totalDocs } }', {}],
  ['{ Posts(where: { categories: { equals: { a: 1 } } }) { totalDocs } }', {}],
  ['query ($title: String) { Pages(where: { title: { equals: $title } }) { totalDocs } }', { title: 'a\u0000b' }],
] as const

/** A date filter that is no date: GraphQL's own types refuse it, and whatever answers, it is no 500. */
export const NOT_A_DATE_GRAPHQL = '{ Pages(where: { createdAt: { greater_than: "notadate" } }) { totalDocs } }'
