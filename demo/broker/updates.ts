// The write side a live dashboard depends on: attribute updates (PATCH / POST
// /entities/{id}/attrs), batch upserts (POST /entityOperations/upsert) and entity deletion.
// Written attributes are kept on the entity and replace the generated readings from then on.

import { entityTypeNames, typeModels, type NormalizedAttribute, type StaticEntity, type Tenant } from './data'
import { hashInts } from './random'
import { badRequest, notFound } from './problems'

/** What one write did to one entity, for subscriptions to match. */
export interface EntityChange {
  entity: StaticEntity
  /** Names of the attributes written (every attribute for a new entity). */
  attributes: string[]
  created: boolean
  /** Set when the entity was deleted: subscribers get `{id, type, deletedAt}`. */
  deletedAt?: string
}

const ATTRIBUTE_NAME = /^(?:[A-Za-z_][A-Za-z0-9_.-]{0,255}|[A-Za-z][A-Za-z0-9+.-]*:\S{1,1024})$/
const RESERVED = new Set(['id', 'type', '@context', 'createdAt', 'modifiedAt', 'deletedAt'])
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One attribute of a request body, in normalized or concise form, as the normalized attribute stored. */
function parseAttribute(name: string, raw: unknown, observedAt: string): NormalizedAttribute {
  if (!isObject(raw)) {
    // Concise: a bare value is a Property.
    return { type: 'Property', value: raw, observedAt }
  }
  const type = raw.type ?? ('object' in raw ? 'Relationship' : isGeometry(raw.value) ? 'GeoProperty' : 'Property')
  if (type !== 'Property' && type !== 'GeoProperty' && type !== 'Relationship') {
    if ('value' in raw || 'object' in raw) throw badRequest(`Attribute '${name}': unsupported type '${String(type)}'`)
    // Concise JSON object without `value`: the object is the value.
    return { type: 'Property', value: raw, observedAt }
  }
  const attribute: NormalizedAttribute = { type }
  if (type === 'Relationship') {
    if (typeof raw.object !== 'string' || !URI.test(raw.object)) throw badRequest(`Relationship '${name}' needs an 'object' URI`)
    attribute.object = raw.object
  } else {
    if (!('value' in raw) || raw.value === null) throw badRequest(`Attribute '${name}' needs a 'value'`)
    if (type === 'GeoProperty' && !isGeometry(raw.value)) throw badRequest(`GeoProperty '${name}' needs a GeoJSON geometry`)
    attribute.value = raw.value
  }
  if (typeof raw.unitCode === 'string') attribute.unitCode = raw.unitCode
  if (type !== 'Relationship' || typeof raw.observedAt === 'string') {
    attribute.observedAt = typeof raw.observedAt === 'string' && !Number.isNaN(Date.parse(raw.observedAt)) ? raw.observedAt : observedAt
  }
  return attribute
}

function isGeometry(value: unknown): value is { type: string; coordinates: unknown } {
  return isObject(value) && typeof value.type === 'string' && Array.isArray(value.coordinates)
}

/** The attributes of a fragment (entity members other than id, type and @context). */
function parseFragment(body: unknown, observedAt: string): Map<string, NormalizedAttribute> {
  if (!isObject(body)) throw badRequest('The body must be a JSON object of attributes')
  const attributes = new Map<string, NormalizedAttribute>()
  for (const [name, raw] of Object.entries(body)) {
    if (RESERVED.has(name)) continue
    if (!ATTRIBUTE_NAME.test(name)) throw badRequest(`Invalid attribute name '${name.slice(0, 80)}'`)
    attributes.set(name, parseAttribute(name, raw, observedAt))
  }
  return attributes
}

function write(entity: StaticEntity, attributes: Map<string, NormalizedAttribute>): void {
  entity.written ??= new Map()
  for (const [name, attribute] of attributes) {
    entity.written.set(name, attribute)
    // Geo-queries read the position directly.
    if (name === 'location' && attribute.type === 'GeoProperty') {
      const geometry = attribute.value as { type: string; coordinates: unknown }
      if (geometry.type === 'Point' && Array.isArray(geometry.coordinates)) {
        entity.position = [Number(geometry.coordinates[0]), Number(geometry.coordinates[1])]
      }
    }
  }
}

/**
 * PATCH /entities/{id}/attrs (`mode: 'update'`: only existing attributes) or
 * POST /entities/{id}/attrs (`'append'`: adds new ones too). Returns the attributes not updated.
 */
export function updateAttributes(tenant: Tenant, id: string, body: unknown, nowIso: string, mode: 'update' | 'append'): { change?: EntityChange; notUpdated: string[] } {
  const entity = tenant.byId.get(id)
  if (!entity) throw notFound(id, 'Entity Not Found')
  const attributes = parseFragment(body, nowIso)
  if (attributes.size === 0) throw badRequest('No attributes to update')
  const notUpdated: string[] = []
  if (mode === 'update') {
    for (const name of [...attributes.keys()]) {
      if (!typeModels[entity.type].byName.has(name) && !entity.written?.has(name)) {
        attributes.delete(name)
        notUpdated.push(name)
      }
    }
  }
  if (attributes.size === 0) return { notUpdated }
  write(entity, attributes)
  return { change: { entity, attributes: [...attributes.keys()], created: false }, notUpdated }
}

/** POST /entityOperations/upsert: updates existing entities (merging attributes), creates the others. */
export function upsertEntities(tenant: Tenant, body: unknown, nowIso: string): EntityChange[] {
  if (!Array.isArray(body) || body.length === 0) throw badRequest('The body must be a non-empty array of entities')
  // Validate everything before writing anything: a bad item leaves the tenant untouched.
  const parsed = body.map((item, index) => {
    if (!isObject(item) || typeof item.id !== 'string' || !URI.test(item.id)) throw badRequest(`Entity ${index}: 'id' must be a URI`)
    const attributes = parseFragment(item, nowIso)
    const existing = tenant.byId.get(item.id)
    if (!existing && (typeof item.type !== 'string' || !entityTypeNames.includes(item.type as never))) {
      throw badRequest(`Entity ${index}: the demo broker creates only ${entityTypeNames.join(', ')}`)
    }
    return { id: item.id, type: item.type as StaticEntity['type'], attributes, existing }
  })
  return parsed.map(({ id, type, attributes, existing }) => {
    const entity = existing ?? createEntity(tenant, id, type)
    write(entity, attributes)
    return { entity, attributes: existing ? [...attributes.keys()] : typeModels[entity.type].attributes.map((spec) => spec.name), created: !existing }
  })
}

function createEntity(tenant: Tenant, id: string, type: StaticEntity['type']): StaticEntity {
  const ofType = tenant.byType.get(type) ?? []
  const seed = hashInts(...[...id].map((character) => character.charCodeAt(0)))
  const template = ofType[0] ?? tenant.entities[0]
  const entity: StaticEntity = {
    id,
    type,
    ordinal: ofType.length + 1,
    seed,
    regionSeed: template.regionSeed,
    city: tenant.city,
    position: tenant.city.center,
    street: tenant.city.streets[0],
    houseNumber: 1,
    deviceId: template.deviceId,
    alert: false,
    phaseMs: 0,
  }
  tenant.entities.push(entity)
  tenant.byId.set(id, entity)
  tenant.byType.set(type, [...ofType, entity])
  return entity
}

/** DELETE /entities/{id}. */
export function deleteEntity(tenant: Tenant, id: string, nowIso: string): EntityChange {
  const entity = tenant.byId.get(id)
  if (!entity) throw notFound(id, 'Entity Not Found')
  tenant.byId.delete(id)
  tenant.entities.splice(tenant.entities.indexOf(entity), 1)
  tenant.byType.set(entity.type, (tenant.byType.get(entity.type) ?? []).filter((candidate) => candidate !== entity))
  return { entity, attributes: [], created: false, deletedAt: nowIso }
}
