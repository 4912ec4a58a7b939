// Entity selection for GET /entities: type/id/idPattern/attrs/q/geo validated and turned
// into query parameters. Brokers refuse a query without any filter, so we refuse it first.

import { z } from 'zod'

import { NgsiError } from './errors'
import { ATTRIBUTE_NAME } from './names'
import { buildQuery, type QueryNode } from './query'

export type BBox = [west: number, south: number, east: number, north: number]

export interface GeoQuery {
  georel: string
  geometry: 'Point' | 'MultiPoint' | 'LineString' | 'MultiLineString' | 'Polygon' | 'MultiPolygon'
  coordinates: unknown[] | string
  geoproperty?: string
}

export interface EntityQuery {
  type?: string | string[]
  id?: string[]
  idPattern?: string
  attrs?: string[]
  q?: QueryNode
  bbox?: BBox
  geo?: GeoQuery
  /** A total cap for this query (the client's maxEntities still applies). */
  limit?: number
}

// Types and attributes may be short terms or full IRIs; neither may carry list separators.
const typeName = z.string().regex(/^[^\s,;|()"'<>\\]{1,256}$/, 'an entity type name or IRI')
const attributeName = z.string().refine((name) => ATTRIBUTE_NAME.test(name) || /^https?:\/\/[^\s,;|()"'<>\\]{1,256}$/.test(name), 'an attribute name or IRI')
const entityId = z.string().regex(/^[A-Za-z][A-Za-z0-9+.-]*:[^\s,<>"]{1,1024}$/, 'an entity id (a URI)')

export const bboxSchema = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .refine(([west, , east]) => west < east, 'west must be less than east')
  .refine(([, south, , north]) => south < north, 'south must be less than north')

const GEOREL = /^(near;(maxDistance|minDistance)==\d+(\.\d+)?|within|contains|intersects|equals|disjoint|overlaps)$/

export const geoQuerySchema = z.strictObject({
  georel: z.string().regex(GEOREL, 'near;maxDistance==<m>, within, contains, intersects, equals, disjoint or overlaps'),
  geometry: z.enum(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']),
  coordinates: z.union([z.array(z.unknown()).min(1), z.string().min(2).max(20_000)]),
  geoproperty: z.string().regex(ATTRIBUTE_NAME).optional(),
})

export const entityQuerySchema = z
  .strictObject({
    type: z.union([typeName, z.array(typeName).min(1).max(50)]).optional(),
    id: z.array(entityId).min(1).max(100).optional(),
    idPattern: z.string().min(1).max(256).optional(),
    attrs: z.array(attributeName).min(1).max(100).optional(),
    // Checked by buildQuery, which reports a precise message.
    q: z.custom<QueryNode>((value) => typeof value === 'object' && value !== null).optional(),
    bbox: bboxSchema.optional(),
    geo: geoQuerySchema.optional(),
    limit: z.number().int().min(1).optional(),
  })
  .refine((query) => !(query.bbox && query.geo), 'use bbox or geo, not both')
  .refine(
    (query) => Boolean(query.type || query.id || query.idPattern || query.attrs || query.q || query.bbox || query.geo),
    'a query needs at least one of type, id, idPattern, attrs, q, bbox or geo (brokers refuse unfiltered queries)',
  )

/** Longitude/latitude box as the `within` Polygon brokers understand (lon,lat order, closed ring). */
export function bboxToGeo(bbox: readonly number[]): GeoQuery {
  const parsed = bboxSchema.safeParse(bbox)
  if (!parsed.success) {
    throw new NgsiError('bad-request', `Invalid bbox [west, south, east, north]: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'bbox'} ${issue.message}`).join('; ')}`)
  }
  const [west, south, east, north] = parsed.data
  return {
    georel: 'within',
    geometry: 'Polygon',
    coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]],
  }
}

/** The query parameters for GET /entities (without paging). */
export function entityQueryParams(query: EntityQuery): Record<string, string | string[] | undefined> {
  const parsed = entityQuerySchema.safeParse(query)
  if (!parsed.success) {
    throw new NgsiError('bad-request', `Invalid entity query: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'} ${issue.message}`).join('; ')}`)
  }
  const { type, id, idPattern, attrs, q, bbox } = parsed.data
  const geo = bbox ? bboxToGeo(bbox) : parsed.data.geo
  return {
    type: type === undefined ? undefined : Array.isArray(type) ? type : [type],
    id,
    idPattern,
    attrs,
    q: q ? buildQuery(q) : undefined,
    georel: geo?.georel,
    geometry: geo?.geometry,
    coordinates: geo && (typeof geo.coordinates === 'string' ? geo.coordinates : JSON.stringify(geo.coordinates)),
    geoproperty: geo?.geoproperty,
  }
}
