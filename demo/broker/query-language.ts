// The NGSI-LD query language (`q`), ETSI GS CIM 009 §4.9: enough of it to mirror what
// real brokers accept and reject, so the app's query builder is tested against a parser
// rather than a string match.
//
//   Query   = Or
//   Or      = And *("|" And)
//   And     = Term *(";" Term)
//   Term    = "(" Or ")" / Path [Operator Value]
//   Path    = name *("." name / "[" name "]")
//   Value   = number / "quoted" / true / false / ISO date / URI, or a list a,b or range a..b

import { compileSafeRegex } from './safe-regex'

export type ComparisonOperator = '==' | '!=' | '>' | '>=' | '<' | '<='

export type QueryValue =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'dateTime'; value: string }
  | { kind: 'uri'; value: string }

export interface PathSegment {
  name: string
  /** `[name]` reaches into a compound value; `.name` into sub-attributes first. */
  bracket: boolean
}

export interface AttributePath {
  attribute: string
  segments: PathSegment[]
}

export type QueryNode =
  | { kind: 'and' | 'or'; terms: QueryNode[] }
  | { kind: 'exists'; path: AttributePath }
  | { kind: 'compare'; path: AttributePath; operator: ComparisonOperator; value: QueryValue }
  | { kind: 'oneOf'; path: AttributePath; negate: boolean; values: QueryValue[] }
  | { kind: 'range'; path: AttributePath; negate: boolean; from: QueryValue; to: QueryValue }
  | { kind: 'pattern'; path: AttributePath; negate: boolean; regex: RegExp }

export class QuerySyntaxError extends Error {
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`)
    this.name = 'QuerySyntaxError'
  }
}

const NAME_CHAR = /[A-Za-z0-9_]/
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/
const OPERATORS = ['!~=', '==', '!=', '>=', '<=', '~=', '>', '<'] as const

export function parseQuery(text: string): QueryNode {
  const parser = new Parser(text)
  const node = parser.parseOr()
  parser.expectEnd()
  return node
}

class Parser {
  private position = 0

  constructor(private readonly text: string) {}

  parseOr(): QueryNode {
    const terms = [this.parseAnd()]
    while (this.take('|')) terms.push(this.parseAnd())
    return terms.length === 1 ? terms[0] : { kind: 'or', terms }
  }

  expectEnd(): void {
    this.skipSpaces()
    if (this.position < this.text.length) this.fail(`unexpected '${this.text[this.position]}'`)
  }

  private parseAnd(): QueryNode {
    const terms = [this.parseTerm()]
    while (this.take(';')) terms.push(this.parseTerm())
    return terms.length === 1 ? terms[0] : { kind: 'and', terms }
  }

  private parseTerm(): QueryNode {
    if (this.take('(')) {
      const inner = this.parseOr()
      if (!this.take(')')) this.fail("missing ')'")
      return inner
    }
    const path = this.parsePath()
    this.skipSpaces()
    const operator = OPERATORS.find((candidate) => this.text.startsWith(candidate, this.position))
    if (!operator) return { kind: 'exists', path }
    this.position += operator.length
    this.skipSpaces()
    if (operator === '~=' || operator === '!~=') {
      return { kind: 'pattern', path, negate: operator === '!~=', regex: this.parseRegex() }
    }
    const first = this.parseValue()
    if (this.text.startsWith('..', this.position)) {
      this.position += 2
      if (operator !== '==' && operator !== '!=') this.fail(`a range needs == or !=, not ${operator}`)
      return { kind: 'range', path, negate: operator === '!=', from: first, to: this.parseValue() }
    }
    if (this.text[this.position] === ',') {
      if (operator !== '==' && operator !== '!=') this.fail(`a value list needs == or !=, not ${operator}`)
      const values = [first]
      while (this.text[this.position] === ',') {
        this.position++
        values.push(this.parseValue())
      }
      return { kind: 'oneOf', path, negate: operator === '!=', values }
    }
    if (first.kind === 'boolean' && operator !== '==' && operator !== '!=') this.fail(`${operator} cannot compare booleans`)
    return { kind: 'compare', path, operator, value: first }
  }

  private parsePath(): AttributePath {
    this.skipSpaces()
    const attribute = this.parseName()
    const segments: PathSegment[] = []
    for (;;) {
      if (this.text[this.position] === '.') {
        this.position++
        segments.push({ name: this.parseName(), bracket: false })
      } else if (this.text[this.position] === '[') {
        this.position++
        segments.push({ name: this.parseName(), bracket: true })
        if (this.text[this.position] !== ']') this.fail("missing ']'")
        this.position++
      } else {
        return { attribute, segments }
      }
    }
  }

  private parseName(): string {
    const start = this.position
    while (this.position < this.text.length && NAME_CHAR.test(this.text[this.position])) this.position++
    if (start === this.position) this.fail(this.position < this.text.length ? `expected an attribute name, found '${this.text[this.position]}'` : 'expected an attribute name')
    return this.text.slice(start, this.position)
  }

  private parseValue(): QueryValue {
    if (this.text[this.position] === '"') return { kind: 'string', value: this.parseQuoted() }
    const start = this.position
    while (this.position < this.text.length && !',;|)'.includes(this.text[this.position]) && !this.text.startsWith('..', this.position)) {
      this.position++
    }
    const atom = this.text.slice(start, this.position).trim()
    if (!atom) this.fail('missing value', start)
    if (NUMBER.test(atom)) return { kind: 'number', value: Number(atom) }
    if (atom === 'true' || atom === 'false') return { kind: 'boolean', value: atom === 'true' }
    if (ISO_DATE.test(atom)) {
      if (Number.isNaN(Date.parse(atom))) this.fail(`invalid date '${atom}'`, start)
      return { kind: 'dateTime', value: atom }
    }
    if (TIME.test(atom)) return { kind: 'string', value: atom }
    if (URI.test(atom)) return { kind: 'uri', value: atom }
    return this.fail(`unquoted string '${atom}': text values must be in double quotes`, start)
  }

  private parseQuoted(): string {
    const start = this.position
    this.position++
    let value = ''
    while (this.position < this.text.length) {
      const char = this.text[this.position++]
      if (char === '"') return value
      if (char === '\\') {
        if (this.position >= this.text.length) break
        value += this.text[this.position++]
      } else {
        value += char
      }
    }
    return this.fail('unterminated string', start)
  }

  /** A regex runs to the next top-level ';' or '|', or to the ')' closing an enclosing group. */
  private parseRegex(): RegExp {
    const start = this.position
    let source: string
    if (this.text[this.position] === '"') {
      source = this.parseQuoted()
    } else {
      let depth = 0
      while (this.position < this.text.length) {
        const char = this.text[this.position]
        if (char === '\\') {
          this.position += 2
          continue
        }
        if (depth === 0 && (char === ';' || char === '|' || char === ')')) break
        if (char === '(') depth++
        if (char === ')') depth--
        this.position++
      }
      source = this.text.slice(start, this.position)
    }
    if (!source) this.fail('missing pattern', start)
    try {
      return compileSafeRegex(source)
    } catch (error) {
      return this.fail(`invalid pattern: ${(error as Error).message}`, start)
    }
  }

  private take(char: string): boolean {
    this.skipSpaces()
    if (this.text[this.position] !== char) return false
    this.position++
    return true
  }

  private skipSpaces(): void {
    while (this.text[this.position] === ' ') this.position++
  }

  private fail(message: string, position = this.position): never {
    throw new QuerySyntaxError(message, position)
  }
}

/** What the evaluator needs from an entity: one normalized attribute by name. */
export interface AttributeSource {
  attribute(name: string): object | undefined
}

export function evaluateQuery(node: QueryNode, entity: AttributeSource): boolean {
  switch (node.kind) {
    case 'and':
      return node.terms.every((term) => evaluateQuery(term, entity))
    case 'or':
      return node.terms.some((term) => evaluateQuery(term, entity))
    case 'exists':
      return resolvePath(node.path, entity) !== undefined
    default: {
      const target = resolvePath(node.path, entity)
      if (target === undefined || target === null) return false
      const candidates = Array.isArray(target) ? target.map(plainValue) : [plainValue(target)]
      if (node.kind === 'compare' && node.operator === '!=') return !candidates.some((candidate) => compare(candidate, node.value) === 0)
      if (node.kind === 'oneOf' && node.negate) return !candidates.some((candidate) => node.values.some((value) => compare(candidate, value) === 0))
      if (node.kind === 'range' && node.negate) return !candidates.some((candidate) => inRange(candidate, node.from, node.to))
      if (node.kind === 'pattern') {
        const matches = candidates.some((candidate) => typeof candidate === 'string' && node.regex.test(candidate))
        return node.negate ? !matches : matches
      }
      return candidates.some((candidate) => matchesPositive(node, candidate))
    }
  }
}

function matchesPositive(node: Extract<QueryNode, { kind: 'compare' | 'oneOf' | 'range' }>, candidate: unknown): boolean {
  if (node.kind === 'oneOf') return node.values.some((value) => compare(candidate, value) === 0)
  if (node.kind === 'range') return inRange(candidate, node.from, node.to)
  const order = compare(candidate, node.value)
  if (order === undefined) return false
  switch (node.operator) {
    case '==':
      return order === 0
    case '>':
      return order > 0
    case '>=':
      return order >= 0
    case '<':
      return order < 0
    case '<=':
      return order <= 0
    default:
      return false
  }
}

function inRange(candidate: unknown, from: QueryValue, to: QueryValue): boolean {
  const low = compare(candidate, from)
  const high = compare(candidate, to)
  return low !== undefined && high !== undefined && low >= 0 && high <= 0
}

/** Orders an entity value against a query value; undefined when they cannot be compared. */
function compare(candidate: unknown, value: QueryValue): number | undefined {
  if (value.kind === 'number') return typeof candidate === 'number' ? Math.sign(candidate - value.value) : undefined
  if (value.kind === 'boolean') return typeof candidate === 'boolean' ? (candidate === value.value ? 0 : 1) : undefined
  if (typeof candidate !== 'string') return undefined
  if (value.kind === 'dateTime' || (ISO_DATE.test(candidate) && ISO_DATE.test(value.value))) {
    const difference = Date.parse(candidate) - Date.parse(value.value)
    return Number.isNaN(difference) ? undefined : Math.sign(difference)
  }
  return candidate < value.value ? -1 : candidate > value.value ? 1 : 0
}

/** DateTime values arrive as {"@type": "DateTime", "@value": "..."}: compare the string. */
function plainValue(value: unknown): unknown {
  if (value && typeof value === 'object' && '@value' in value) return (value as { '@value': unknown })['@value']
  return value
}

function resolvePath(path: AttributePath, entity: AttributeSource): unknown {
  const attribute = entity.attribute(path.attribute) as Record<string, unknown> | undefined
  if (!attribute) return undefined
  let current: unknown = attribute.type === 'Relationship' ? attribute.object : attribute.value
  path.segments.forEach((segment, index) => {
    if (index === 0 && !segment.bracket && segment.name in attribute) {
      // `temperature.observedAt`, `temperature.value`, or a sub-property `address.verified`;
      // any other dotted name reaches into the value, as brokers tolerate.
      const sub = attribute[segment.name]
      current = sub && typeof sub === 'object' && 'type' in sub ? (sub as { value?: unknown; object?: unknown }).value ?? (sub as { object?: unknown }).object : sub
      return
    }
    current = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[segment.name] : undefined
  })
  return current
}
