// The read side of the NGSI-LD API a dashboard uses: entity queries, single entities,
// and type / attribute discovery.

import { decodeSegment, JsonText, pageMetadata, type ApiContext, type ApiResponse } from './api-support'
import { attributeIri, EntityView, entityTypeNames, typeModels, type EntityTypeName } from './data'
import { assertNotTooBroad, parseEntityFilter, parsePaging, resolveType, selectEntities } from './entity-query'
import { badRequest, notFound } from './problems'
import { parseRepresentation, renderEntity, renderEntityList } from './representation'
import { handleTemporal } from './temporal'

const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/

export function handleNgsiLd(context: ApiContext): ApiResponse {
  const [, collection = '', ...rest] = context.route.split('/')
  const item = rest.length ? decodeSegment(rest.join('/')) : ''
  switch (collection) {
    case 'entities':
      return item ? getEntity(context, item) : queryEntities(context)
    case 'types':
      return item ? getType(context, item) : listTypes(context)
    case 'attributes':
      return item ? getAttribute(context, item) : listAttributes(context)
    case 'temporal':
      return handleTemporal(context, rest)
    default:
      throw notFound(`No service for ${context.route}`, 'Service Not Found')
  }
}

function queryEntities(context: ApiContext): ApiResponse {
  const filter = parseEntityFilter(context.params)
  assertNotTooBroad(filter)
  const paging = parsePaging(context.params, context.flavor)
  const representation = parseRepresentation(context.params, context.headers)
  const selected = selectEntities(context.tenant, filter, context.nowMs)
  const page = selected.slice(paging.offset, paging.offset + paging.limit).map((entity) => new EntityView(entity, context.nowMs))
  return {
    status: 200,
    body: new JsonText(renderEntityList(page, representation)),
    contentType: representation.mediaType,
    ...pageMetadata(context, selected.length, paging),
  }
}

function getEntity(context: ApiContext, id: string): ApiResponse {
  if (!URI.test(id)) throw badRequest(`Invalid entity id '${id}': not a URI`)
  const entity = context.tenant.byId.get(id)
  if (!entity) throw notFound(id, 'Entity Not Found')
  const representation = parseRepresentation(context.params, context.headers)
  return {
    status: 200,
    body: new JsonText(renderEntity(new EntityView(entity, context.nowMs), representation)),
    contentType: representation.mediaType,
  }
}

function presentTypes(context: ApiContext): EntityTypeName[] {
  return entityTypeNames.filter((type) => (context.tenant.byType.get(type)?.length ?? 0) > 0)
}

function listTypes(context: ApiContext): ApiResponse {
  const types = presentTypes(context)
  if (context.params.get('details') === 'true') {
    return {
      status: 200,
      body: types.map((type) => ({
        id: typeModels[type].iri,
        type: 'EntityType',
        typeName: type,
        attributeNames: typeModels[type].attributes.map((spec) => spec.name),
      })),
    }
  }
  return { status: 200, body: { id: `urn:ngsi-ld:EntityTypeList:${context.tenant.name}`, type: 'EntityTypeList', typeList: types } }
}

function getType(context: ApiContext, name: string): ApiResponse {
  const type = resolveType(name)
  const entities = type && context.tenant.byType.get(type)
  if (!type || !entities?.length) throw notFound(`Entity type '${name}' not found`)
  const model = typeModels[type]
  return {
    status: 200,
    body: {
      id: model.iri,
      type: 'EntityTypeInformation',
      typeName: type,
      entityCount: entities.length,
      attributeDetails: model.attributes.map((spec) => ({
        id: attributeIri(model, spec.name),
        type: 'Attribute',
        attributeName: spec.name,
        attributeTypes: [spec.kind],
      })),
    },
  }
}

/** Attribute name → the types that carry it, in a stable order. */
function attributeIndex(context: ApiContext): Map<string, EntityTypeName[]> {
  const index = new Map<string, EntityTypeName[]>()
  for (const type of presentTypes(context)) {
    for (const spec of typeModels[type].attributes) index.set(spec.name, [...(index.get(spec.name) ?? []), type])
  }
  return index
}

function listAttributes(context: ApiContext): ApiResponse {
  const index = attributeIndex(context)
  if (context.params.get('details') === 'true') {
    return {
      status: 200,
      body: [...index].map(([name, types]) => ({ id: attributeIri(typeModels[types[0]], name), type: 'Attribute', attributeName: name, typeNames: types })),
    }
  }
  return { status: 200, body: { id: `urn:ngsi-ld:AttributeList:${context.tenant.name}`, type: 'AttributeList', attributeList: [...index.keys()] } }
}

function getAttribute(context: ApiContext, nameOrIri: string): ApiResponse {
  const index = attributeIndex(context)
  const name = [...index].find(([name, types]) => name === nameOrIri || types.some((type) => attributeIri(typeModels[type], name) === nameOrIri))?.[0]
  const types = name && index.get(name)
  if (!name || !types) throw notFound(`Attribute '${nameOrIri}' not found`)
  const kinds = [...new Set(types.map((type) => typeModels[type].attributes.find((spec) => spec.name === name)!.kind))]
  return {
    status: 200,
    body: {
      id: attributeIri(typeModels[types[0]], name),
      type: 'Attribute',
      attributeName: name,
      attributeCount: types.reduce((sum, type) => sum + (context.tenant.byType.get(type)?.length ?? 0), 0),
      attributeTypes: kinds,
      typeNames: types,
    },
  }
}
