import { isGeometryShaped } from '@/ngsi/geojson'

import { type IdType, type QueryableCollection, type QuerySchema, type QueryTarget, queryTargets } from './queryTargets'

/** Largest id a numeric id column holds: PostgreSQL's `serial` is a 4-byte integer (SQLite's holds more, but never gets there). */
export const MAX_NUMERIC_ID = 2_147_483_647
/** Most values one `in`, `not_in` or `all` list may hold (SQLite allows 32,766 bound parameters per statement). */
export const MAX_LIST_VALUES = 1000

const EQUALITY = ['equals', 'not_equals']
const LISTS = ['in', 'not_in', 'all']
const ORDER = ['greater_than', 'greater_than_equal', 'less_than', 'less_than_equal']
const GEO = ['near', 'within', 'intersects']

const FIELD_DESCRIPTIONS: Record<QueryTarget['kind'], string> = {
  id: 'an id',
  number: 'a number field',
  date: 'a date field',
  checkbox: 'a checkbox field',
  point: 'a point field',
  text: 'a text field',
  choice: 'a field with set values',
  blockType: 'a block type',
  json: 'a JSON or rich text field',
  relationship: 'a relationship field',
  polymorphic: 'a relationship to several collections',
  unqueryable: 'this field',
}

/** The operators each kind of field answers on every database (the rest fail there, often as a 500). */
function operatorsFor(target: QueryTarget): string[] {
  switch (target.kind) {
    case 'id':
      // `like` on an id is how the admin's relationship picker searches collections without a title field.
      return [...EQUALITY, ...LISTS, ...ORDER, 'exists', 'like']
    case 'number':
    case 'date':
      return [...EQUALITY, ...LISTS, ...ORDER, 'exists']
    case 'checkbox':
      return [...EQUALITY, 'in', 'not_in', 'exists']
    case 'text':
      return [...EQUALITY, ...LISTS, ...ORDER, 'exists', 'like', 'not_like', 'contains']
    case 'choice':
      return [...EQUALITY, ...LISTS, 'exists', ...(target.hasMany ? ['contains'] : [])]
    case 'blockType':
      // The SQL adapters look the value up as a block: lists and `exists` find none (a TypeError).
      return EQUALITY
    case 'json':
      return [...EQUALITY, 'exists', ...(target.nested ? ['like', 'not_like'] : [])]
    case 'relationship':
      return [...EQUALITY, ...LISTS, 'exists', ...(target.hasMany ? ['contains'] : [])]
    case 'polymorphic':
      // The SQL adapters answer anything else on the field itself with "Not supported" (a 500).
      return ['equals']
    case 'point':
      return [...EQUALITY, 'exists', ...GEO]
    case 'unqueryable':
      return []
  }
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)

const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value)

function idProblem(value: unknown, idType: IdType): string | undefined {
  if (idType === 'text') return (typeof value === 'string' && value !== '') || typeof value === 'number' ? undefined : `${show(value)} is not an id`
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  return /^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) <= MAX_NUMERIC_ID ? undefined : `${show(value)} is not an id`
}

function dateProblem(value: unknown): string | undefined {
  const date = typeof value === 'string' && value.trim() !== '' ? new Date(value) : typeof value === 'number' || value instanceof Date ? new Date(value) : undefined
  // Years outside 1–9999 parse in JavaScript but not in PostgreSQL (or, past year 275760, not at all).
  const year = date?.getUTCFullYear()
  return year !== undefined && year >= 1 && year <= 9999 ? undefined : `${show(value)} is not a date`
}

/** Whether one value (never null) suits the field `target` points at. */
function valueProblem(target: QueryTarget, value: unknown): string | undefined {
  switch (target.kind) {
    case 'id':
    case 'relationship':
      return idProblem(value, target.idType)
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
      return Number.isFinite(number) ? undefined : `${show(value)} is not a number`
    }
    case 'date':
      return dateProblem(value)
    case 'checkbox':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? undefined : `${show(value)} is not true or false`
    case 'choice':
    case 'blockType':
      return isScalar(value) && target.options.includes(String(value)) ? undefined : `${show(value)} is not one of ${target.options.join(', ')}`
    case 'text':
    case 'json':
      return isScalar(value) ? undefined : `${show(value)} is not a text, number or boolean`
    case 'point':
      return pointProblem(value)
    case 'polymorphic':
    case 'unqueryable':
      return `${show(value)} cannot be compared`
  }
}

const numeric = (value: unknown) => (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) && Number.isFinite(Number(value))

/** A point: `[lng, lat]` or `"lng,lat"`; `near` adds a maximum and a minimum distance. */
function pointProblem(value: unknown, most = 2): string | undefined {
  const parts = typeof value === 'string' ? value.split(',') : value
  return Array.isArray(parts) && parts.length >= 2 && parts.length <= most && parts.every(numeric) ? undefined : `${show(value)} is not a longitude,latitude`
}

function geometryProblem(value: unknown): string | undefined {
  return isPlainObject(value) && isGeometryShaped(value) ? undefined : `${show(value)} is not a GeoJSON geometry`
}

/** `in`, `not_in` and `all` take a list, or a comma-separated string as REST query strings send them. */
function listProblem(target: QueryTarget, value: unknown): string | undefined {
  // The SQL adapters take a single id for a list here and write broken SQL (a text of several finds everything).
  if (target.kind === 'relationship' && target.ofSeveral && !Array.isArray(value)) return `${show(value)} is not a list (…[in][0]=…&…[in][1]=…)`
  const list = typeof value === 'string' ? value.split(',') : typeof value === 'number' ? [value] : value
  if (!Array.isArray(list)) return `${show(value)} is not a list`
  if (list.length > MAX_LIST_VALUES) return `lists hold at most ${MAX_LIST_VALUES} values`
  for (const item of list) {
    // null in a list means "or empty", except among ids, where the SQL adapters fail on it.
    const problem = item === null ? (target.kind === 'relationship' ? 'null is not an id' : undefined) : valueProblem(target, item)
    if (problem) return problem
  }
  return undefined
}

function polymorphicProblem(target: Extract<QueryTarget, { kind: 'polymorphic' }>, value: unknown): string | undefined {
  const slugs = Object.keys(target.idTypes)
  if (!isPlainObject(value) || typeof value.relationTo !== 'string' || !Object.hasOwn(target.idTypes, value.relationTo)) {
    return `${show(value)} is not {relationTo, value} with relationTo one of ${slugs.join(', ')}`
  }
  return value.value === null ? undefined : idProblem(value.value, target.idTypes[value.relationTo])
}

/** `equals: null` asks for an empty field, except where the SQL adapters fail on it. */
function nullProblem(target: QueryTarget): string | undefined {
  if (target.kind === 'blockType') return 'null is not a block type'
  if (target.kind === 'relationship' && target.ofSeveral) return 'null cannot be compared here; ask for exists'
  return undefined
}

type Context = { collection: QueryableCollection; schema: QuerySchema; unsupportedOperators: ReadonlySet<string> }

/** Whether `operator: value` may be asked of `target`. */
function conditionProblem(target: QueryTarget, operator: string, value: unknown, context: Context): string | undefined {
  if (target.kind === 'unqueryable') return target.reason
  if (!operatorsFor(target).includes(operator)) return `"${operator}" does not apply to ${FIELD_DESCRIPTIONS[target.kind]}`
  if (context.unsupportedOperators.has(operator)) return `"${operator}" is not supported by this database`
  if (operator === 'exists') {
    // The SQL adapters lose the value of a relationship to several collections on a boolean (the text works).
    if (target.kind === 'relationship' && target.ofSeveral && typeof value === 'boolean') return `write ${value} as the text "${value}" here`
    return typeof value === 'boolean' || value === 'true' || value === 'false' ? undefined : `${show(value)} is not true or false`
  }
  if (target.kind === 'polymorphic') return polymorphicProblem(target, value)
  if (LISTS.includes(operator)) return listProblem(target, value)
  if (operator === 'near') return pointProblem(value, 4)
  if (operator === 'within' || operator === 'intersects') return geometryProblem(value)
  if (operator === 'contains' && target.kind === 'relationship' && isPlainObject(value)) {
    // A has-many relationship `contains` a related document matching a query of its own.
    const slug = target.relationTo
    const related = slug ? context.schema.collection(slug) : undefined
    return slug && related ? whereProblemIn(value, { ...context, collection: related }, slug) : `${show(value)} is not an id`
  }
  // Has-many relationships and selects `contains` one of their values.
  if (operator === 'contains' && (target.kind === 'relationship' || target.kind === 'choice')) return valueProblem(target, value)
  if (operator === 'contains' && target.kind === 'text' && target.hasMany && Array.isArray(value)) return listProblem(target, value)
  if (['like', 'not_like', 'contains'].includes(operator)) {
    // Payload's SQL adapters split a `like` text on spaces: anything but a text fails there.
    if (typeof value !== 'string') return `${show(value)} is not a text`
    // Inside JSON, PostgreSQL matches a `like` as a regular expression, where a stray "+" is an error.
    if (target.kind === 'json' && value.includes('+')) return `${show(value)}: "+" cannot be searched for inside JSON`
    // An id's `like` is an `equals` to the number the text reads as (to nothing when it reads as none).
    return target.kind === 'id' && Number.isFinite(Number(value)) ? idProblem(value, target.idType) : undefined
  }
  if (value === null && EQUALITY.includes(operator)) return nullProblem(target)
  // Payload reads the text "null" as null for relationships and dates (not for the value of a relationship to several collections).
  if (value === 'null' && EQUALITY.includes(operator) && ((target.kind === 'relationship' && !target.ofSeveral) || target.kind === 'date')) return undefined
  // A has-many relationship `equals` a list of ids (Payload turns it into `in`).
  if (Array.isArray(value) && EQUALITY.includes(operator) && target.kind === 'relationship') return listProblem(target, value)
  return valueProblem(target, value)
}

function whereProblemIn(where: unknown, context: Context, at: string): string | undefined {
  if (!isPlainObject(where)) return `${at}: a query is {field: {operator: value}}, not ${show(where)}`
  for (const [key, constraint] of Object.entries(where)) {
    const path = `${at}.${key}`
    if (key.toLowerCase() === 'and' || key.toLowerCase() === 'or') {
      // Query strings with more than 20 items give an object with index keys instead of a list.
      const branches = Array.isArray(constraint) ? constraint : isPlainObject(constraint) ? Object.values(constraint) : undefined
      if (!branches) return `${path}: a list of queries, not ${show(constraint)}`
      for (const branch of branches) {
        const problem = whereProblemIn(branch, context, path)
        if (problem) return problem
      }
      continue
    }
    if (!isPlainObject(constraint)) return `${path}: conditions are {operator: value}, not ${show(constraint)}`
    const targets = queryTargets(key, context.collection, context.schema)
    for (const [operator, value] of Object.entries(constraint)) {
      // A path that names no field has no targets: that is Payload's own check (a 400).
      for (const target of targets) {
        const problem = conditionProblem(target, operator, value, context)
        if (problem) return `${path}.${operator}: ${problem}`
      }
    }
  }
  return undefined
}

/** Whether a NUL character hides in any text or key of `value` (PostgreSQL refuses them in text). */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (value === null || typeof value !== 'object') return false
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item))
}

/**
 * What is wrong with a `where` query for `collection`, judged against its fields: the shape
 * (`{field: {operator: value}}`, `and`/`or` lists), the operators each field type answers on every
 * database, and each value (ids, numbers, dates, choices, points). Undefined when nothing is.
 */
export function whereProblem(where: unknown, collection: QueryableCollection, schema: QuerySchema, unsupportedOperators: ReadonlySet<string> = new Set()): string | undefined {
  if (containsNul(where)) return 'where: NUL characters are not allowed'
  return whereProblemIn(where, { collection, schema, unsupportedOperators }, 'where')
}
