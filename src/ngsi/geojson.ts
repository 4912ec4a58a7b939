// Entities → GeoJSON for the map. Real data has 3-D, swapped (lat,lon) and missing
// coordinates: validate every geometry, repair what is unambiguous, count what is skipped.

import type { NormalizedEntity, PlainValue } from './normalize'

export type Position = number[]
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint' | 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString' | 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }

export interface Feature {
  type: 'Feature'
  id: string
  geometry: Geometry
  properties: Record<string, PlainValue>
}

export interface FeatureCollection {
  type: 'FeatureCollection'
  features: Feature[]
  /** Entities without a usable geometry. */
  skipped: number
}

/** Array nesting of each geometry's coordinates above the positions. */
const NESTING: Record<Geometry['type'], number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 }

export function isGeometryLike(value: unknown): value is { type: string; coordinates: unknown } {
  if (!value || typeof value !== 'object') return false
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown }
  return typeof type === 'string' && Object.hasOwn(NESTING, type) && Array.isArray(coordinates)
}

const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value)

/** Lists (none empty) that end in finite numbers, at any depth. */
const numberLists = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && (value.every(isFiniteNumber) || value.every(numberLists))

/**
 * Whether `value` has the form of a GeoJSON geometry: one of the six types, its coordinates lists
 * (none empty) of finite numbers. The form only, as a query may carry it: nesting per type,
 * position counts and ranges are validateGeometry's, which also repairs what it can for the map.
 */
export const isGeometryShaped = (value: unknown): boolean => isGeometryLike(value) && numberLists(value.coordinates)

type Pair = [number, number]

/** Positions cut to 2-D, or undefined when the shape is not what the type promises. */
function toPairs(value: unknown, depth: number): unknown {
  if (!Array.isArray(value)) return undefined
  if (depth === 0) {
    const [lon, lat] = value
    if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat)) return undefined
    // Most positions are already 2-D: kept, not copied.
    return value.length === 2 ? value : [lon, lat]
  }
  if (value.length === 0) return undefined
  const items = value.map((item) => toPairs(item, depth - 1))
  return items.includes(undefined) ? undefined : items
}

function positions(value: unknown, depth: number): Pair[] {
  return depth === 0 ? [value as Pair] : (value as unknown[]).flatMap((item) => positions(item, depth - 1))
}

function mapPositions(value: unknown, depth: number, map: (pair: Pair) => Pair): unknown {
  return depth === 0 ? map(value as Pair) : (value as unknown[]).map((item) => mapPositions(item, depth - 1, map))
}

function enoughPositions(type: Geometry['type'], coordinates: unknown): boolean {
  const lines = type === 'LineString' ? [coordinates] : type === 'MultiLineString' ? (coordinates as unknown[]) : []
  const rings = type === 'Polygon' ? (coordinates as unknown[]) : type === 'MultiPolygon' ? (coordinates as unknown[][]).flat() : []
  return lines.every((line) => (line as unknown[]).length >= 2) && rings.every((ring) => (ring as unknown[]).length >= 4)
}

const inRange = ([lon, lat]: Pair) => lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90

function validPoint(position: unknown): Geometry | undefined {
  const pair = toPairs(position, 0) as Pair | undefined
  if (!pair) return undefined
  if (inRange(pair)) return { type: 'Point', coordinates: pair }
  const swapped: Pair = [pair[1], pair[0]]
  return Math.abs(pair[1]) > 90 && inRange(swapped) ? { type: 'Point', coordinates: swapped } : undefined
}

/**
 * A clean 2-D geometry, or undefined. Coordinates written lat,lon are swapped back only when
 * that is provable (a latitude beyond ±90 that fits once swapped); otherwise they pass as they are.
 */
export function validateGeometry(value: unknown): Geometry | undefined {
  if (!isGeometryLike(value)) return undefined
  const type = value.type as Geometry['type']
  // Most city data is points: checked without the nested-array walk below.
  if (type === 'Point') return validPoint(value.coordinates)
  const depth = NESTING[type]
  let coordinates = toPairs(value.coordinates, depth)
  if (coordinates === undefined || !enoughPositions(type, coordinates)) return undefined
  const pairs = positions(coordinates, depth)
  if (!pairs.every(inRange)) {
    const swap = ([a, b]: Pair): Pair => [b, a]
    if (!pairs.some(([, lat]) => Math.abs(lat) > 90) || !pairs.map(swap).every(inRange)) return undefined
    coordinates = mapPositions(coordinates, depth, swap)
  }
  return { type, coordinates } as Geometry
}

/** The entity's `location`, else its first valid geometry-valued attribute. */
export function entityGeometry(entity: NormalizedEntity): Geometry | undefined {
  if (entity.location) return entity.location
  for (const attribute of Object.values(entity.attributes)) {
    const geometry = isGeometryLike(attribute.value) ? validateGeometry(attribute.value) : undefined
    if (geometry) return geometry
  }
  return undefined
}

/**
 * The property beside a LanguageProperty attribute that holds every language of its text
 * (`typeOfLocation@languages: {es, pt, en}`): the attribute itself holds one picked language, and
 * a reader's page picks its own from this. `@` is in no attribute name (ATTRIBUTE_NAME).
 */
export const languagesProperty = (name: string) => `${name}@languages`

/**
 * A feature's properties from an entity: the named attributes' plain values (a LanguageProperty's
 * languages beside it), its id and type, its observation time.
 */
export function featureProperties(entity: NormalizedEntity, names: readonly string[]): Record<string, PlainValue> {
  const properties: Record<string, PlainValue> = {}
  for (const name of names) {
    const attribute = entity.attributes[name]
    if (!attribute) continue
    properties[name] = attribute.value
    if (attribute.languageMap) properties[languagesProperty(name)] = attribute.languageMap
  }
  properties.entityId = entity.id
  properties.entityType = entity.type
  if (entity.observedAt) properties.observedAt = entity.observedAt
  return properties
}

/** The entity as a map feature (the given attributes, else every non-geometry one), or undefined without a usable geometry. */
export function toFeature(entity: NormalizedEntity, attributes?: readonly string[]): Feature | undefined {
  const geometry = entityGeometry(entity)
  if (!geometry) return undefined
  const names = attributes ?? Object.keys(entity.attributes).filter((name) => !isGeometryLike(entity.attributes[name].value))
  return { type: 'Feature', id: entity.id, geometry, properties: featureProperties(entity, names) }
}

export function toFeatureCollection(entities: readonly NormalizedEntity[], options: { attributes?: readonly string[] } = {}): FeatureCollection {
  const features: Feature[] = []
  let skipped = 0
  for (const entity of entities) {
    const feature = toFeature(entity, options.attributes)
    if (feature) features.push(feature)
    else skipped++
  }
  return { type: 'FeatureCollection', features, skipped }
}
