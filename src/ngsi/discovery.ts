// What the broker holds: entity types and attribute names, in the list and the
// `details=true` shapes brokers answer with. Names are returned as the broker wrote them:
// an IRI there means our @context lacks the term, and only the IRI will match in queries.

import { NgsiError } from './errors'

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value)

function names(list: unknown, keys: string[], what: string): string[] {
  if (!Array.isArray(list)) throw new NgsiError('invalid-response', `Unexpected ${what} answer from the broker`)
  return list.flatMap((item) => {
    if (typeof item === 'string') return [item]
    const name = isObject(item) ? keys.map((key) => item[key]).find((value) => typeof value === 'string') : undefined
    return typeof name === 'string' ? [name] : []
  })
}

/** `{typeList}` or an array of EntityType objects (`details=true`). */
export function parseTypeList(body: unknown): string[] {
  return names(isObject(body) ? body.typeList : body, ['typeName', 'id'], 'type list')
}

/** `{attributeList}` or an array of Attribute objects. */
export function parseAttributeList(body: unknown): string[] {
  return names(isObject(body) ? body.attributeList : body, ['attributeName', 'id'], 'attribute list')
}

export interface TypeInfo {
  type: string
  entityCount?: number
  attributes: string[]
}

/** `/types/{type}`: `{typeName, entityCount, attributeDetails}` (or `attributeNames` from the details list). */
export function parseTypeInfo(body: unknown, requested: string): TypeInfo {
  const item = Array.isArray(body) ? body[0] : body
  if (!isObject(item)) throw new NgsiError('invalid-response', 'Unexpected type information answer from the broker')
  const details = item.attributeDetails ?? item.attributeNames ?? []
  const info: TypeInfo = {
    type: typeof item.typeName === 'string' ? item.typeName : requested,
    attributes: names(details, ['attributeName', 'id'], 'attribute details'),
  }
  if (typeof item.entityCount === 'number' && Number.isFinite(item.entityCount)) info.entityCount = item.entityCount
  return info
}
