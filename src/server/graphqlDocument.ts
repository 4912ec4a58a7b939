import 'server-only'

import { GraphQLError, Kind, parse, type DefinitionNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql'

import { DEFAULT_LIMIT, MAX_GRAPHQL_COST, MAX_LIMIT } from './queryCaps'

/**
 * What a GraphQL document may hold before graphql-js validates it. Validation is not linear in the
 * document (the overlapping-fields rule compares every pair of fields with one response name, and
 * fragments that spread each other recurse without end), so a document is measured first with a
 * walk that is: tokens while parsing, then its fields as they would be executed (fragments
 * expanded, each fragment measured once), nesting, aliases, directives, fragments and cycles.
 * Payload's complexity rule bounds what execution may cost; these bound what validation may cost.
 */
export const GRAPHQL_DOCUMENT_LIMITS = {
  /** Characters of the document: comments and string literals cost the lexer and validation without being tokens. */
  characters: 50_000,
  /** Lexical tokens: a generous query of the admin or a script uses a few hundred. */
  tokens: 5_000,
  /** Fields selected, fragments expanded: what validation and execution actually walk. */
  fields: 500,
  /** Fields with one response name in one selection set (the overlapping-fields rule is quadratic in it). */
  sameNameFields: 20,
  /** Selection sets inside each other, fragments included. */
  depth: 15,
  aliases: 30,
  directives: 50,
  fragments: 30,
  operations: 5,
  /**
   * What execution may cost: every object a field resolves (a document, a relation, a page of
   * results) counts 1, and a list of documents (a field with a `limit` argument, or one that selects
   * `docs`) counts its limit times its selection, so thirty aliases of a 100-document list cost 6,000,
   * not thirty fields. ~2 per document listed; 1,000 lets one request list a few hundred documents.
   */
  cost: MAX_GRAPHQL_COST.member,
  /** Values in `variables` (objects, arrays and scalars) and their nesting: coercing them is recursive. */
  variableValues: 10_000,
  variableDepth: 32,
} as const

export type GraphqlDocumentLimits = { [K in keyof typeof GRAPHQL_DOCUMENT_LIMITS]: number }

/** A document over a limit or unparsable; the message is safe to show. */
export class GraphqlDocumentRefused extends Error {
  override name = 'GraphqlDocumentRefused'
}

type Measure = { fields: number; depth: number; aliases: number; directives: number; cost: number }

const none = (): Measure => ({ fields: 0, depth: 0, aliases: 0, directives: 0, cost: 0 })


/**
 * How many documents a field lists, or undefined when it is not a list: its `limit` (a literal or a
 * variable), Payload's default when it has none, the cap for 0 (Payload's "no limit", which the cap
 * turns into 100) or `pagination: false`.
 */
function listSize(field: FieldNode, variables: Record<string, unknown>): number | undefined {
  const argument = (name: string) => field.arguments?.find((candidate) => candidate.name.value === name)?.value
  const valueOf = (node: ValueNode | undefined): unknown => {
    if (!node) return undefined
    if (node.kind === Kind.VARIABLE) return variables[node.name.value]
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value)
    if (node.kind === Kind.BOOLEAN) return node.value
    return undefined
  }
  const limit = argument('limit')
  const selectsDocs = field.selectionSet?.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === 'docs') ?? false
  if (!limit && !selectsDocs) return undefined
  if (valueOf(argument('pagination')) === false) return MAX_LIMIT
  const asked = valueOf(limit)
  if (asked === undefined || asked === null) return DEFAULT_LIMIT
  const size = typeof asked === 'number' ? Math.floor(asked) : Number.NaN
  return Number.isFinite(size) && size > 0 ? Math.min(size, MAX_LIMIT) : MAX_LIMIT
}

/** The document's definitions, parsed within the character and token limits. */
function parseWithin(source: string, limits: GraphqlDocumentLimits): readonly DefinitionNode[] {
  if (source.length > limits.characters) throw new GraphqlDocumentRefused(`The query is longer than ${limits.characters} characters`)
  try {
    return parse(source, { maxTokens: limits.tokens, noLocation: true }).definitions
  } catch (error) {
    if (error instanceof GraphQLError && /tokens/.test(error.message)) {
      throw new GraphqlDocumentRefused(`The query has more than ${limits.tokens} tokens`)
    }
    throw new GraphqlDocumentRefused(`The query does not parse: ${error instanceof GraphQLError ? error.message : 'syntax error'}`)
  }
}

/** The document's fragments by name, each defined once, and no more operations and fragments than allowed. */
function fragmentsWithin(definitions: readonly DefinitionNode[], limits: GraphqlDocumentLimits): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>()
  let operations = 0
  for (const definition of definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      if (fragments.has(definition.name.value)) throw new GraphqlDocumentRefused(`Fragment ${definition.name.value} is defined twice`)
      fragments.set(definition.name.value, definition)
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      operations += 1
    }
  }
  if (operations > limits.operations) throw new GraphqlDocumentRefused(`The document has more than ${limits.operations} operations`)
  if (fragments.size > limits.fragments) throw new GraphqlDocumentRefused(`The document has more than ${limits.fragments} fragments`)
  return fragments
}

/**
 * Throws GraphqlDocumentRefused unless `source` parses within the token limit and its operations,
 * fragments expanded, stay within every limit; returns the cost of its costliest operation (what
 * a request spends of the caller's API read budget). Runs in time linear in the document.
 */
export function checkGraphqlDocument(source: string, limits: GraphqlDocumentLimits = GRAPHQL_DOCUMENT_LIMITS, variables: unknown = {}): number {
  const variableValues = variables && typeof variables === 'object' && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {}
  const definitions = parseWithin(source, limits)
  const fragments = fragmentsWithin(definitions, limits)

  const measured = new Map<string, Measure>()
  const inProgress = new Set<string>()
  const over = (what: string, limit: number) => new GraphqlDocumentRefused(`The query selects more than ${limit} ${what}`)

  // Totals are capped as they add up, so a fragment spread 2^k times never grows a number past a limit.
  const add = (total: Measure, part: Measure) => {
    total.fields += part.fields
    total.aliases += part.aliases
    total.directives += part.directives
    total.cost += part.cost
    if (total.fields > limits.fields) throw over('fields (fragments expanded)', limits.fields)
    if (total.cost > limits.cost)
      throw new GraphqlDocumentRefused(`The query asks for more than ${limits.cost} documents and objects (a list counts its limit times its selection)`)
    if (total.aliases > limits.aliases) throw over('aliases', limits.aliases)
    if (total.directives > limits.directives) throw over('directives', limits.directives)
  }

  const fragmentMeasure = (name: string): Measure => {
    const known = measured.get(name)
    if (known) return known
    const fragment = fragments.get(name)
    // An unknown fragment is for validation to name; it adds nothing here.
    if (!fragment) return none()
    if (inProgress.has(name)) throw new GraphqlDocumentRefused(`Fragment ${name} spreads itself`)
    inProgress.add(name)
    const measure = selectionMeasure(fragment.selectionSet)
    measure.directives += fragment.directives?.length ?? 0
    inProgress.delete(name)
    measured.set(name, measure)
    return measure
  }

  function selectionMeasure(set: SelectionSetNode): Measure {
    const total = none()
    const sameName = new Map<string, number>()
    let deepest = 0
    for (const selection of set.selections) {
      add(total, { fields: 0, depth: 0, aliases: 0, directives: selection.directives?.length ?? 0, cost: 0 })
      let inner: Measure
      if (selection.kind === Kind.FIELD) {
        const responseName = selection.alias?.value ?? selection.name.value
        const count = (sameName.get(responseName) ?? 0) + 1
        if (count > limits.sameNameFields) throw over(`copies of "${responseName}" in one selection`, limits.sameNameFields)
        sameName.set(responseName, count)
        inner = selection.selectionSet ? selectionMeasure(selection.selectionSet) : none()
        // An object costs 1 and what it selects; a list, its size times that.
        if (selection.selectionSet) inner = { ...inner, cost: (listSize(selection, variableValues) ?? 1) * (1 + inner.cost) }
        add(total, { fields: 1, depth: 0, aliases: selection.alias ? 1 : 0, directives: 0, cost: 0 })
        deepest = Math.max(deepest, inner.depth)
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = selectionMeasure(selection.selectionSet)
        deepest = Math.max(deepest, inner.depth - 1)
      } else {
        inner = fragmentMeasure(selection.name.value)
        deepest = Math.max(deepest, inner.depth - 1)
      }
      add(total, inner)
    }
    total.depth = deepest + 1
    if (total.depth > limits.depth) throw over('levels of nesting', limits.depth)
    return total
  }

  let costliest = 0
  for (const definition of definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) costliest = Math.max(costliest, selectionMeasure(definition.selectionSet).cost)
    else if (definition.kind === Kind.FRAGMENT_DEFINITION) fragmentMeasure(definition.name.value)
  }
  return costliest
}

/**
 * Throws GraphqlDocumentRefused when `variables` holds more values, or nests them deeper, than the
 * limits allow; walked without recursion, so no nesting can overflow the stack here.
 */
export function checkGraphqlVariables(variables: unknown, limits: GraphqlDocumentLimits = GRAPHQL_DOCUMENT_LIMITS): void {
  const pending: [unknown, number][] = [[variables, 0]]
  let values = 0
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!
    values += 1
    if (values > limits.variableValues) throw new GraphqlDocumentRefused(`The variables hold more than ${limits.variableValues} values`)
    if (depth > limits.variableDepth) throw new GraphqlDocumentRefused(`The variables nest deeper than ${limits.variableDepth} levels`)
    if (value && typeof value === 'object') for (const inner of Object.values(value)) pending.push([inner, depth + 1])
  }
}

/**
 * Throws GraphqlDocumentRefused when the JSON text `body` nests deeper, or holds more values
 * (containers and list or member separators), than the variables limits allow, with a little room
 * for the body's own envelope. One pass over the characters, before JSON.parse: parsing a deeply
 * nested body within the size cap already blocks the event loop.
 */
export function checkJsonBodyShape(body: string, limits: GraphqlDocumentLimits = GRAPHQL_DOCUMENT_LIMITS): void {
  const maxDepth = limits.variableDepth + 3
  const maxValues = limits.variableValues + 100
  let depth = 0
  let values = 0
  let inString = false
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i)
    if (inString) {
      if (code === 0x5c) i++
      else if (code === 0x22) inString = false
      continue
    }
    if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      depth++
      values++
      if (depth > maxDepth) throw new GraphqlDocumentRefused(`The variables nest deeper than ${limits.variableDepth} levels`)
    } else if (code === 0x7d || code === 0x5d) depth--
    else if (code === 0x2c) values++
    if (values > maxValues) throw new GraphqlDocumentRefused(`The variables hold more than ${limits.variableValues} values`)
  }
}

/** The query and variables of a GraphQL-over-HTTP JSON body, if it is one; anything else is graphql-http's to refuse. */
export function operationOfBody(body: string): { query: string; variables: unknown } | undefined {
  try {
    const data = JSON.parse(body) as unknown
    if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined
    const { query, variables } = data as { query?: unknown; variables?: unknown }
    return typeof query === 'string' ? { query, variables } : undefined
  } catch {
    return undefined
  }
}
