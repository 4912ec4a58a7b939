import { describe, expect, it } from 'vitest'

import { GRAPHQL_DOCUMENT_LIMITS, GraphqlDocumentRefused, checkGraphqlDocument, checkGraphqlVariables, checkJsonBodyShape, operationOfBody } from '@/server/graphqlDocument'

const refused = (query: string) => {
  try {
    checkGraphqlDocument(query)
  } catch (error) {
    expect(error).toBeInstanceOf(GraphqlDocumentRefused)
    return (error as Error).message
  }
  throw new Error(`accepted: ${query.slice(0, 80)}`)
}

const repeat = (text: string, times: number, separator = ' ') => Array.from({ length: times }, () => text).join(separator)

describe('checkGraphqlDocument', () => {
  it('accepts the queries the admin and scripts send', () => {
    expect(() =>
      checkGraphqlDocument(`query Pages($where: Page_where) {
        Pages(where: $where, limit: 10) { docs { id title slug layout { ... on MapView { blockType layers { id name } } } } totalDocs }
        Posts { docs { ...PostFields } }
      }
      fragment PostFields on Post { id title categories { id title } }`),
    ).not.toThrow()
    expect(() => checkGraphqlDocument('mutation { loginUser(email: "a@b.c", password: "x") { token user { id email } } }')).not.toThrow()
  })

  it('refuses one field repeated past the same-name limit (quadratic validation)', () => {
    expect(refused(`{ Users { docs { ${repeat('id', GRAPHQL_DOCUMENT_LIMITS.sameNameFields + 1)} } } }`)).toMatch(/copies of "id"/)
    expect(() => checkGraphqlDocument(`{ Users { docs { ${repeat('id', GRAPHQL_DOCUMENT_LIMITS.sameNameFields)} } } }`)).not.toThrow()
  })

  it('refuses 30,000 repeats before building a tree, and many short tokens by their count', () => {
    expect(refused(`{ ${repeat('id', 30_000)} }`)).toMatch(/longer than 50000 characters/)
    expect(refused(`{ ${repeat('a', 6_000)} }`)).toMatch(/more than 5000 tokens/)
  })

  it('refuses a long comment or string literal by the document length', () => {
    expect(refused(`# ${'x'.repeat(60_000)}\n{ id }`)).toMatch(/characters/)
    expect(refused(`{ Users(where: { email: { equals: "${'x'.repeat(60_000)}" } }) { totalDocs } }`)).toMatch(/characters/)
  })

  it('counts fields with fragments expanded, however they fan out', () => {
    // Each fragment spreads the next twice: 2^20 fields from a short document.
    const chain = Array.from({ length: 20 }, (_, i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`).join('\n')
    expect(refused(`{ Users { docs { ...F0 } } }\n${chain}\nfragment F20 on User { id }`)).toMatch(/fields/)
  })

  it('refuses fragments that spread each other, directly or in a circle, without a stack overflow', () => {
    expect(refused('{ Users { docs { ...A } } } fragment A on User { id ...A }')).toMatch(/spreads itself/)
    expect(refused('{ Users { docs { ...A } } } fragment A on User { ...B } fragment B on User { ...C } fragment C on User { ...A }')).toMatch(
      /spreads itself/,
    )
    // A cycle no operation uses is refused too: validation would still walk it.
    expect(refused('{ Users { docs { id } } } fragment A on User { ...B } fragment B on User { ...A }')).toMatch(/spreads itself/)
  })

  it('refuses deep nesting, also through inline fragments and spreads', () => {
    const deep = (levels: number) => `${repeat('{ a', levels)} ${repeat('}', levels)}`
    expect(refused(deep(GRAPHQL_DOCUMENT_LIMITS.depth + 1))).toMatch(/nesting/)
    expect(() => checkGraphqlDocument(deep(GRAPHQL_DOCUMENT_LIMITS.depth))).not.toThrow()
    const viaFragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on T { a { ...F${i + 1} } }`).join('\n')
    expect(refused(`{ ...F0 }\n${viaFragments}\nfragment F20 on T { id }`)).toMatch(/nesting/)
  })

  it('refuses too many aliases, directives, fragments and operations', () => {
    expect(refused(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: Users { totalDocs }`).join(' ')} }`)).toMatch(/aliases/)
    expect(refused(`{ id ${repeat('@include(if: true)', 51)} }`)).toMatch(/directives/)
    expect(refused(`{ id } ${Array.from({ length: 31 }, (_, i) => `fragment F${i} on T { id }`).join(' ')}`)).toMatch(/fragments/)
    expect(refused(Array.from({ length: 6 }, (_, i) => `query Q${i} { id }`).join(' '))).toMatch(/operations/)
  })

  it('refuses a document that does not parse, and one fragment defined twice', () => {
    expect(refused('{ Users { ')).toMatch(/does not parse/)
    expect(refused('{ ...A } fragment A on T { id } fragment A on T { id }')).toMatch(/defined twice/)
  })
})

describe('checkGraphqlVariables', () => {
  const nested = (levels: number) => JSON.parse(`${'{"and":['.repeat(levels)}{}${']}'.repeat(levels)}`) as unknown

  it('accepts the variables scripts send', () => {
    expect(() => checkGraphqlVariables(undefined)).not.toThrow()
    expect(() => checkGraphqlVariables({ where: { or: [{ id: { in: Array.from({ length: 1000 }, (_, i) => i) } }] }, limit: 5 })).not.toThrow()
  })

  it('refuses variables nested past the limit, 100,000 deep without a stack overflow', () => {
    expect(() => checkGraphqlVariables({ where: nested(15) })).not.toThrow()
    expect(() => checkGraphqlVariables({ where: nested(17) })).toThrow(/nest deeper than 32/)
    expect(() => checkGraphqlVariables({ where: nested(100_000) })).toThrow(GraphqlDocumentRefused)
  })

  it('refuses variables with more values than the limit', () => {
    expect(() => checkGraphqlVariables({ where: { or: Array.from({ length: 4_000 }, (_, i) => ({ email: { equals: `x${i}` } })) } })).toThrow(/more than 10000 values/)
  })
})

describe('checkJsonBodyShape', () => {
  const body = (variables: string) => `{"query":"query ($w: User_where) { Users(where: $w) { totalDocs } }","variables":${variables}}`

  it('passes the bodies scripts send, brackets and commas inside strings aside', () => {
    expect(() => checkJsonBodyShape(body('{"w":{"and":[{"id":{"in":[1,2,3]}}]}}'))).not.toThrow()
    expect(() => checkJsonBodyShape(body(`{"w":{"title":{"like":"${'[{,'.repeat(20_000)}\\"]"}}}}`))).not.toThrow()
  })

  it('refuses deep nesting and wide lists before any parse', () => {
    expect(() => checkJsonBodyShape(body(`{"w":${'{"and":['.repeat(100_000)}{}${']}'.repeat(100_000)}}`))).toThrow(/nest deeper/)
    expect(() => checkJsonBodyShape(body(`{"w":{"or":[${Array.from({ length: 12_000 }, (_, i) => `{"id":{"equals":${i}}}`).join(',')}]}}`))).toThrow(/values/)
  })
})

describe('operationOfBody', () => {
  it('reads the query and variables of a JSON body and nothing else', () => {
    expect(operationOfBody('{"query":"{ id }","variables":{"a":1}}')).toEqual({ query: '{ id }', variables: { a: 1 } })
    expect(operationOfBody('{"query":42}')).toBeUndefined()
    expect(operationOfBody('not json')).toBeUndefined()
    expect(operationOfBody('[{"query":"{ id }"}]')).toBeUndefined()
  })
})

describe('checkGraphqlDocument: what a query asks the server to do', () => {
  const aliases = (count: number, list: string) => `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${list}`).join(' ')} }`

  it('counts a list by its limit: thirty aliases of 100 posts are refused, one is not', () => {
    expect(refused(aliases(30, 'Posts(limit: 100) { docs { id } }'))).toMatch(/more than 1000 documents/)
    expect(() => checkGraphqlDocument('{ Posts(limit: 100) { docs { id title slug } totalDocs } }')).not.toThrow()
    expect(() => checkGraphqlDocument(aliases(4, 'Posts(limit: 100) { docs { id } }'))).not.toThrow()
  })

  it("counts a list without a limit at Payload's page size, and limit 0 or pagination: false at the cap", () => {
    expect(() => checkGraphqlDocument(aliases(30, 'Posts { docs { id } }'))).not.toThrow()
    expect(refused(aliases(30, 'Posts(limit: 0) { docs { id } }'))).toMatch(/documents/)
    expect(refused(aliases(30, 'Posts(pagination: false) { docs { id } }'))).toMatch(/documents/)
    expect(refused(aliases(30, 'Posts(limit: -1) { docs { id } }'))).toMatch(/documents/)
  })

  it('multiplies nested lists and relations: posts × the relations each selects, categories × their posts', () => {
    const relations = (count: number) => Array.from({ length: count }, (_, index) => `r${index}: relatedPosts { title }`).join(' ')
    expect(() => checkGraphqlDocument(`{ Posts(limit: 100) { docs { ${relations(4)} } } }`)).not.toThrow()
    expect(refused(`{ Posts(limit: 100) { docs { ${relations(10)} } } }`)).toMatch(/documents/)
    expect(refused('{ Categories(limit: 50) { docs { posts(limit: 50) { docs { id } } } } }')).toMatch(/documents/)
  })

  it('reads the limit from the variables, and through fragments', () => {
    const lists = Array.from({ length: 6 }, (_, index) => `l${index}: Posts(limit: $n) { ...ids }`).join(' ')
    const query = `query ($n: Int) { ${lists} } fragment ids on Posts { docs { id } }`
    expect(() => checkGraphqlDocument(query, GRAPHQL_DOCUMENT_LIMITS, { n: 10 })).not.toThrow()
    expect(() => checkGraphqlDocument(query, GRAPHQL_DOCUMENT_LIMITS, { n: 100 })).toThrow(GraphqlDocumentRefused)
    // Without a value the variable means Payload's page size.
    expect(() => checkGraphqlDocument(query, GRAPHQL_DOCUMENT_LIMITS, {})).not.toThrow()
  })
})
