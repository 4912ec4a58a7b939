// The NGSI-LD query language (`q`) built from a typed tree, never from user text: strings
// are always quoted and escaped, attribute paths checked against a strict pattern.

import { z } from 'zod'

import { NgsiError } from './errors'
import { ATTRIBUTE_PATH } from './names'

export const comparisonOperators = ['==', '!=', '>', '>=', '<', '<='] as const
export type ComparisonOperator = (typeof comparisonOperators)[number]

/**
 * The admin's filter rows store an operator by name: Payload turns select values into GraphQL
 * enum names, which allow only [_a-zA-Z0-9]. The symbol is the label and what `q` is written with.
 */
export const comparisonOperatorSymbols = { eq: '==', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const satisfies Record<
  string,
  ComparisonOperator
>
export type ComparisonOperatorName = keyof typeof comparisonOperatorSymbols
export const comparisonOperatorNames = Object.keys(comparisonOperatorSymbols) as [ComparisonOperatorName, ...ComparisonOperatorName[]]

/** A date travels as a Date in code or as `{ date: ISO string }` in JSON. */
export type QueryScalar = string | number | boolean | Date | { date: string }
/** A range `from..to`, or a list `a,b` (any of). */
export type QueryValue = QueryScalar | { from: QueryScalar; to: QueryScalar } | QueryScalar[]

export type QueryNode =
  | { kind: 'compare'; attribute: string; operator: ComparisonOperator; value: QueryValue }
  | { kind: 'and' | 'or'; terms: QueryNode[] }
  | { kind: 'group'; term: QueryNode }


const MAX_DEPTH = 8
const MAX_QUERY_LENGTH = 4000

const isoDate = z.string().refine((text) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)), 'an ISO 8601 date')
const scalarSchema = z.union([
  z.string().max(1000),
  z.number().finite(),
  z.boolean(),
  z.date().refine((date) => !Number.isNaN(date.getTime()), 'a valid date'),
  z.strictObject({ date: isoDate }),
])
const valueSchema = z.union([scalarSchema, z.strictObject({ from: scalarSchema, to: scalarSchema }), z.array(scalarSchema).min(1).max(100)])

export const attributePathSchema = z.string().regex(ATTRIBUTE_PATH, 'an attribute name: letters, digits and _, starting with a letter, with .sub or [key] parts')

const compareSchema = z
  .strictObject({
    kind: z.literal('compare'),
    attribute: attributePathSchema,
    operator: z.enum(comparisonOperators),
    value: valueSchema,
  })
  .superRefine((node, context) => {
    const equality = node.operator === '==' || node.operator === '!='
    const isRange = typeof node.value === 'object' && node.value !== null && 'from' in node.value
    if (!equality && (Array.isArray(node.value) || isRange)) context.addIssue({ code: 'custom', message: 'lists and ranges need == or !=' })
    if (!equality && typeof node.value === 'boolean') context.addIssue({ code: 'custom', message: 'booleans can only be compared with == or !=' })
  })

const nodeSchema: z.ZodType<QueryNode> = z.lazy(() =>
  z.union([
    compareSchema,
    z.strictObject({ kind: z.enum(['and', 'or']), terms: z.array(nodeSchema).min(1).max(50) }),
    z.strictObject({ kind: z.literal('group'), term: nodeSchema }),
  ]),
)

/** Depth-first check that stops at the limit, so hostile nesting never reaches the recursive schema. */
function tooDeep(value: unknown, depth = 0): boolean {
  if (!value || typeof value !== 'object') return false
  if (depth >= MAX_DEPTH) return true
  const { terms, term } = value as { terms?: unknown; term?: unknown }
  return (Array.isArray(terms) && terms.some((child) => tooDeep(child, depth + 1))) || tooDeep(term, depth + 1)
}

/** Validates untrusted query trees (e.g. from a route body). */
export const queryNodeSchema: z.ZodType<QueryNode, unknown> = z
  .unknown()
  .refine((value) => !tooDeep(value), `a query nests at most ${MAX_DEPTH} levels`)
  .pipe(nodeSchema)

/** The admin's flat filter rows (operators by name), combined with AND. */
export const queryRowSchema = z.strictObject({ attribute: attributePathSchema, operator: z.enum(comparisonOperatorNames), value: valueSchema })
export const queryRowsSchema = z.array(queryRowSchema).min(1).max(50)
export type QueryRow = z.infer<typeof queryRowSchema>

export function rowsToQuery(rows: QueryRow[]): QueryNode {
  const terms = rows.map((row): QueryNode => ({ kind: 'compare', ...row, operator: comparisonOperatorSymbols[row.operator] }))
  return terms.length === 1 ? terms[0] : { kind: 'and', terms }
}

function formatDate(date: Date): string {
  const year = date.getUTCFullYear()
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) throw new NgsiError('bad-request', 'Query date out of range')
  return date.toISOString()
}

function formatScalar(value: QueryScalar): string {
  if (typeof value === 'string') return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value)
  if (typeof value === 'boolean') return String(value)
  return formatDate(value instanceof Date ? value : new Date(value.date))
}

function formatValue(value: QueryValue): string {
  if (Array.isArray(value)) return value.map(formatScalar).join(',')
  if (typeof value === 'object' && 'from' in value) return `${formatScalar(value.from)}..${formatScalar(value.to)}`
  return formatScalar(value)
}

interface Rendered {
  text: string
  /** The loosest operator at the top level of `text`, if any. */
  top?: 'and' | 'or'
}

function render(node: QueryNode): Rendered {
  switch (node.kind) {
    case 'compare':
      return { text: `${node.attribute}${node.operator}${formatValue(node.value)}` }
    case 'group':
      return { text: `(${render(node.term).text})` }
    default: {
      const parts = node.terms.map(render)
      if (parts.length === 1) return parts[0]
      // `;` binds tighter than `|`: a child joined by the other operator keeps its grouping in parentheses.
      const text = parts.map((part) => (part.top && part.top !== node.kind ? `(${part.text})` : part.text)).join(node.kind === 'and' ? ';' : '|')
      return { text, top: node.kind }
    }
  }
}

/** Validates the tree and writes it as an NGSI-LD `q` expression. */
export function buildQuery(node: QueryNode): string {
  const parsed = queryNodeSchema.safeParse(node)
  if (!parsed.success) {
    throw new NgsiError('bad-request', `Invalid query: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ').slice(0, 300)}`)
  }
  const { text } = render(parsed.data)
  if (text.length > MAX_QUERY_LENGTH) throw new NgsiError('bad-request', `Query longer than ${MAX_QUERY_LENGTH} characters`)
  return text
}
