// Query parameters shared by GET /entities and GET /temporal/entities: entity selection
// (type, id, idPattern, q, attrs, geo) and paging (limit, offset, count).

import type { LonLat } from './cities'
import { EntityView, entityTypeNames, typeModels, type EntityTypeName, type StaticEntity, type Tenant } from './data'
import type { FlavorProfile } from './flavors'
import { distanceMetres, polygonContains } from './geo'
import { badRequest } from './problems'
import { evaluateQuery, parseQuery, QuerySyntaxError, type QueryNode } from './query-language'
import { compileSafeRegex } from './safe-regex'

type Georel = 'near' | 'within' | 'intersects' | 'disjoint' | 'equals'

interface GeoFilter {
  georel: Georel
  maxDistance?: number
  minDistance?: number
  geometry: { type: 'Point'; point: LonLat } | { type: 'Polygon'; polygons: LonLat[][][] }
  geoproperty: string
}

export interface EntityFilter {
  types?: Set<EntityTypeName>
  ids?: string[]
  idPattern?: RegExp
  query?: QueryNode
  attrs?: string[]
  geo?: GeoFilter
}

export interface Paging {
  limit: number
  offset: number
  count: boolean
}

/** Splits a comma list; NGSI-LD also allows `|` between entity types. */
export const listParam = (value: string | null, separators = /,/): string[] | undefined => {
  const items = value
    ?.split(separators)
    .map((item) => item.trim())
    .filter(Boolean)
  return items?.length ? items : undefined
}

/** Entity types by short name or by the IRI the Smart Data Models context expands them to. */
export function resolveType(name: string): EntityTypeName | undefined {
  return entityTypeNames.find((type) => type === name || typeModels[type].iri === name)
}

export function parseEntityFilter(params: URLSearchParams): EntityFilter {
  const filter: EntityFilter = {}
  const typeNames = listParam(params.get('type'), /[,|]/)
  if (typeNames) {
    filter.types = new Set(typeNames.map(resolveType).filter((type): type is EntityTypeName => type !== undefined))
  }
  filter.ids = listParam(params.get('id'))
  const idPattern = params.get('idPattern')
  if (idPattern !== null) {
    try {
      filter.idPattern = compileSafeRegex(idPattern)
    } catch (error) {
      throw badRequest(`Invalid idPattern: ${(error as Error).message}`)
    }
  }
  const q = params.get('q')
  if (q !== null) {
    try {
      filter.query = parseQuery(q)
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw badRequest(`Invalid q: ${error.message}`)
      throw error
    }
  }
  filter.attrs = listParam(params.get('attrs'))
  filter.geo = parseGeoFilter(params)
  return filter
}

/** Every broker refuses a query that would list the whole database. */
export function assertNotTooBroad(filter: EntityFilter): void {
  if (!filter.types && !filter.ids && !filter.idPattern && !filter.query && !filter.attrs && !filter.geo) {
    throw badRequest('Too broad query: at least one of type, id, idPattern, q, attrs or a geo-query is required')
  }
}

export function parsePaging(params: URLSearchParams, flavor: FlavorProfile, limitParam = 'limit'): Paging {
  const limit = nonNegativeInteger(params, limitParam) ?? flavor.defaultLimit
  if (limit > flavor.maxLimit) throw flavor.limitTooHigh(limit)
  return { limit, offset: nonNegativeInteger(params, 'offset') ?? 0, count: params.get('count') === 'true' }
}

function nonNegativeInteger(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name)
  if (raw === null) return undefined
  if (!/^\d+$/.test(raw)) throw badRequest(`Invalid value for URI parameter ${name}: '${raw}' is not a non-negative integer`)
  return Number(raw)
}

/**
 * The entities a filter selects, in stable id order. Readings are computed only when `q`
 * needs them, so type/id/geo queries over 50,000 entities stay cheap.
 */
export function selectEntities(tenant: Tenant, filter: EntityFilter, nowMs: number): readonly StaticEntity[] {
  const { ids, types, idPattern, attrs, geo, query } = filter
  let candidates: readonly StaticEntity[]
  if (ids) {
    const found = [...new Set(ids)].map((id) => tenant.byId.get(id))
    candidates = found.filter((entity): entity is StaticEntity => entity !== undefined && (!types || types.has(entity.type)))
  } else if (types) {
    // Shared, not copied: a type-only query over 50,000 entities then costs nothing until paging.
    const ofTypes = entityTypeNames.filter((type) => types.has(type)).map((type) => tenant.byType.get(type) ?? [])
    candidates = ofTypes.length === 1 ? ofTypes[0] : ofTypes.flat()
  } else {
    candidates = tenant.entities
  }
  if (!idPattern && !attrs && !geo && !query) return candidates
  return candidates.filter(
    (entity) =>
      (!idPattern || idPattern.test(entity.id)) &&
      (!attrs || attrs.some((name) => typeModels[entity.type].byName.has(name))) &&
      (!geo || matchesGeo(geo, entity)) &&
      (!query || evaluateQuery(query, new EntityView(entity, nowMs))),
  )
}

function matchesGeo(geo: GeoFilter, entity: StaticEntity): boolean {
  // Every demo entity's only GeoProperty is `location`.
  if (geo.geoproperty !== 'location') return false
  const { position } = entity
  const { geometry } = geo
  if (geo.georel === 'near') {
    if (geometry.type !== 'Point') return false
    const distance = distanceMetres(position, geometry.point)
    return (geo.maxDistance === undefined || distance <= geo.maxDistance) && (geo.minDistance === undefined || distance >= geo.minDistance)
  }
  const coincides =
    geometry.type === 'Point'
      ? geometry.point[0] === position[0] && geometry.point[1] === position[1]
      : geometry.polygons.some((polygon) => polygonContains(polygon, position))
  // A point entity is within / intersects a polygon exactly when the polygon contains it.
  if (geo.georel === 'disjoint') return !coincides
  if (geo.georel === 'equals') return geometry.type === 'Point' && coincides
  return coincides
}

function parseGeoFilter(params: URLSearchParams): GeoFilter | undefined {
  const georelText = params.get('georel')
  const geometryType = params.get('geometry')
  const coordinatesText = params.get('coordinates')
  if (georelText === null && geometryType === null && coordinatesText === null) return undefined
  if (georelText === null || geometryType === null || coordinatesText === null) {
    throw badRequest('A geo-query needs georel, geometry and coordinates together')
  }
  const [relation, ...modifiers] = georelText.split(';')
  if (!['near', 'within', 'intersects', 'disjoint', 'equals'].includes(relation)) throw badRequest(`Unsupported georel '${relation}'`)
  const filter: GeoFilter = {
    georel: relation as Georel,
    geometry: parseGeometry(geometryType, coordinatesText),
    geoproperty: params.get('geoproperty') ?? 'location',
  }
  for (const modifier of modifiers) {
    const match = /^(maxDistance|minDistance)==(\d+(?:\.\d+)?)$/.exec(modifier)
    if (!match || relation !== 'near') throw badRequest(`Invalid georel modifier '${modifier}'`)
    filter[match[1] as 'maxDistance' | 'minDistance'] = Number(match[2])
  }
  if (relation === 'near' && (filter.geometry.type !== 'Point' || (filter.maxDistance === undefined && filter.minDistance === undefined))) {
    throw badRequest('georel=near needs geometry=Point and maxDistance or minDistance')
  }
  if (relation === 'within' && filter.geometry.type !== 'Polygon') throw badRequest('georel=within needs a Polygon or MultiPolygon')
  return filter
}

function parseGeometry(type: string, coordinatesText: string): GeoFilter['geometry'] {
  let coordinates: unknown
  try {
    coordinates = JSON.parse(coordinatesText)
  } catch {
    throw badRequest(`coordinates is not valid JSON: ${coordinatesText.slice(0, 80)}`)
  }
  switch (type) {
    case 'Point':
      return { type: 'Point', point: toPosition(coordinates) }
    case 'Polygon':
      return { type: 'Polygon', polygons: [toPolygon(coordinates)] }
    case 'MultiPolygon':
      if (!Array.isArray(coordinates) || coordinates.length === 0) throw badRequest('MultiPolygon coordinates must be an array of polygons')
      return { type: 'Polygon', polygons: coordinates.map(toPolygon) }
    default:
      throw badRequest(`Unsupported geometry '${type}' (Point, Polygon or MultiPolygon)`)
  }
}

function toPosition(value: unknown): LonLat {
  if (!Array.isArray(value) || value.length < 2 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw badRequest(`Invalid position ${JSON.stringify(value)}: expected [longitude, latitude]`)
  }
  const [lon, lat] = value as number[]
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) throw badRequest(`Position ${JSON.stringify(value)} is out of range (longitude first)`)
  return [lon, lat]
}

function toPolygon(value: unknown): LonLat[][] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('Polygon coordinates must be an array of linear rings')
  return value.map((ringValue) => {
    if (!Array.isArray(ringValue) || ringValue.length < 4) throw badRequest('A linear ring needs at least 4 positions')
    const ring = ringValue.map(toPosition)
    const [first, last] = [ring[0], ring[ring.length - 1]]
    if (first[0] !== last[0] || first[1] !== last[1]) throw badRequest('A linear ring must be closed (first position = last position)')
    return ring
  })
}
