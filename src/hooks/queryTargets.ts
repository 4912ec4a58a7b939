import type { FlattenedBlock, FlattenedField } from 'payload'

export type IdType = 'number' | 'text'

/** A collection as far as queries see it: its fields (flattened, as Payload keeps them) and its id type. */
export type QueryableCollection = { fields: FlattenedField[]; idType: IdType }

/** Where query paths lead beyond one collection's own fields. */
export type QuerySchema = {
  collection(slug: string): QueryableCollection | undefined
  /** Blocks declared once in the config and named by slug (`blockReferences`). */
  block(slug: string): FlattenedBlock | undefined
}

/** What a `where` path points at, as far as the operators and values it may be asked about go. */
export type QueryTarget =
  | { kind: 'id'; idType: IdType }
  | { kind: 'number' | 'date' | 'checkbox' | 'point' }
  | { kind: 'text'; hasMany: boolean }
  /** select and radio fields, a polymorphic relationship's `relationTo`: a closed list of values. */
  | { kind: 'choice'; options: string[]; hasMany: boolean }
  /** The type of a row of a blocks field: one of its block slugs. */
  | { kind: 'blockType'; options: string[] }
  /** json and richText; `nested` when the path reaches inside the document. */
  | { kind: 'json'; nested: boolean }
  /** `ofSeveral`: the `value` of a relationship to several collections, whose lists Payload reads only as real lists. */
  | { kind: 'relationship'; idType: IdType; hasMany: boolean; relationTo?: string; ofSeveral?: boolean }
  /** A relationship to several collections: queried as `{relationTo, value}`. */
  | { kind: 'polymorphic'; idTypes: Record<string, IdType> }
  /** A path the database adapter fails on whatever the value (it answers 500): refused with `reason`. */
  | { kind: 'unqueryable'; reason: string }

type Walk = { schema: QuerySchema; rootIdType?: IdType; insideRows: boolean }

const optionValues = (options: readonly (string | { value: string })[]) => options.map((option) => (typeof option === 'string' ? option : option.value))

function blocksOf(field: Extract<FlattenedField, { type: 'blocks' }>, schema: QuerySchema): FlattenedBlock[] {
  const declared = field.blockReferences ?? field.blocks
  return declared.flatMap((block) => {
    const found = typeof block === 'string' ? schema.block(block) : block
    return found ? [found] : []
  })
}

function relationshipTargets(field: Extract<FlattenedField, { type: 'relationship' | 'upload' }>, rest: string[], walk: Walk): QueryTarget[] {
  if (Array.isArray(field.relationTo)) {
    const idTypes = Object.fromEntries(field.relationTo.map((slug) => [slug, walk.schema.collection(slug)?.idType ?? 'text']))
    if (rest.length === 0) return [{ kind: 'polymorphic', idTypes }]
    const [part, ...deeper] = rest
    if (deeper.length > 0 || (part !== 'value' && part !== 'relationTo')) return []
    // Payload's SQL adapters lose the columns of these paths inside arrays and blocks (a TypeError, whatever the value).
    if (walk.insideRows) return [{ kind: 'unqueryable', reason: `not supported inside a list; ask for ${field.name} equals {relationTo, value}` }]
    if (part === 'relationTo') return [{ kind: 'choice', options: field.relationTo, hasMany: false }]
    const idType: IdType = Object.values(idTypes).every((type) => type === 'number') ? 'number' : 'text'
    return [{ kind: 'relationship', idType, hasMany: false, ofSeveral: true }]
  }
  const related = walk.schema.collection(field.relationTo)
  if (!related) return []
  if (rest.length === 0 || (rest.length === 1 && rest[0] === 'id')) {
    return [{ kind: 'relationship', idType: related.idType, hasMany: Boolean(field.hasMany), relationTo: field.relationTo }]
  }
  return targetsIn(related.fields, rest, { schema: walk.schema, rootIdType: related.idType, insideRows: false })
}

function targetsIn(fields: FlattenedField[], [name, ...rest]: string[], walk: Walk): QueryTarget[] {
  const field = fields.find((candidate) => candidate.name === name)
  if (!field) return name === 'id' && walk.rootIdType && rest.length === 0 ? [{ kind: 'id', idType: walk.rootIdType }] : []
  const inner: Walk = { schema: walk.schema, insideRows: walk.insideRows }
  switch (field.type) {
    case 'group':
    case 'tab':
      return rest.length > 0 ? targetsIn(field.flattenedFields, rest, inner) : []
    case 'array':
      return rest.length > 0 ? targetsIn(field.flattenedFields, rest, { ...inner, insideRows: true }) : []
    case 'blocks': {
      const blocks = blocksOf(field, walk.schema)
      if (rest.length === 1 && rest[0] === 'blockType') return [{ kind: 'blockType', options: blocks.map(({ slug }) => slug) }]
      // A name several blocks share is queried in each of them: the value must suit every one.
      return rest.length > 0 ? blocks.flatMap((block) => targetsIn(block.flattenedFields, rest, { ...inner, insideRows: true })) : []
    }
    case 'relationship':
    case 'upload':
      return relationshipTargets(field, rest, walk)
    case 'json':
    case 'richText':
      return [{ kind: 'json', nested: rest.length > 0 }]
  }
  if (rest.length > 0) return []
  switch (field.type) {
    case 'number':
    case 'date':
    case 'checkbox':
    case 'point':
      return [{ kind: field.type }]
    case 'text':
      return [{ kind: 'text', hasMany: Boolean(field.hasMany) }]
    case 'textarea':
    case 'email':
    case 'code':
      return [{ kind: 'text', hasMany: false }]
    case 'select':
      return [{ kind: 'choice', options: optionValues(field.options), hasMany: Boolean(field.hasMany) }]
    case 'radio':
      return [{ kind: 'choice', options: optionValues(field.options), hasMany: false }]
    default:
      return []
  }
}

/**
 * The fields a `where` path names in `collection` (REST dots or GraphQL's `__`), followed through
 * groups, tabs, arrays, blocks and relationships. Several targets when blocks share a field name;
 * none when the path names no field, which Payload's own path check then refuses.
 */
export function queryTargets(path: string, collection: QueryableCollection, schema: QuerySchema): QueryTarget[] {
  const segments = (path === '_id' ? 'id' : path).replace(/__/g, '.').split('.')
  return targetsIn(collection.fields, segments, { schema, rootIdType: collection.idType, insideRows: false })
}
