import { z } from 'zod'

import { attributesSchema, layerEntityTypeSchema } from './layer'
import { extractJson, TaskOutputError } from './output'
import { assemblePrompt } from './prompt'
import { defineTask } from './task'

export const MAX_SAMPLE_ENTITIES = 20

export const sampleDataInputSchema = z.object({
  entityType: layerEntityTypeSchema,
  attributes: attributesSchema,
  count: z.number().int().min(1).max(MAX_SAMPLE_ENTITIES).default(5),
  name: z.string().trim().min(1).max(200).optional(),
  /** Where to place the sample points (WGS84). */
  centre: z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }).optional(),
})

export type SampleDataInput = z.output<typeof sampleDataInputSchema>

export type GeoJsonGeometry = { type: string; coordinates: unknown }

export type NgsiLdAttribute =
  | { type: 'Property'; value: unknown; observedAt?: string; unitCode?: string }
  | { type: 'GeoProperty'; value: GeoJsonGeometry; observedAt?: string }
  | { type: 'Relationship'; object: string | string[]; observedAt?: string }

export type NgsiLdEntity = { id: string; type: string; '@context'?: unknown } & { [attribute: string]: unknown }

/** `location` is always allowed (a map layer needs it) and must be a GeoProperty. */
export const LOCATION = 'location'

const ALLOWED_KEYS: Record<NgsiLdAttribute['type'], readonly string[]> = {
  Property: ['type', 'value', 'observedAt', 'unitCode'],
  GeoProperty: ['type', 'value', 'observedAt'],
  Relationship: ['type', 'object', 'observedAt'],
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/
const URI = /^(urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+|https?:\/\/\S+)$/

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function positionProblem(position: unknown): string | undefined {
  if (!Array.isArray(position) || position.length < 2 || position.length > 3) return 'a position is not [lon, lat]'
  if (!position.every((n) => typeof n === 'number' && Number.isFinite(n))) return 'a position holds a non-number'
  const [lon, lat] = position as number[]
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) return `position [${lon}, ${lat}] is outside lon -180..180, lat -90..90`
  return undefined
}

function positionsProblem(positions: unknown, min: number): string | undefined {
  if (!Array.isArray(positions) || positions.length < min) return `needs at least ${min} positions`
  for (const position of positions) {
    const problem = positionProblem(position)
    if (problem) return problem
  }
  return undefined
}

function ringsProblem(rings: unknown): string | undefined {
  if (!Array.isArray(rings) || rings.length === 0) return 'a polygon needs at least one ring'
  for (const ring of rings) {
    const problem = positionsProblem(ring, 4)
    if (problem) return problem
    const ringPositions = ring as number[][]
    const [first, last] = [ringPositions[0], ringPositions[ringPositions.length - 1]]
    if (first[0] !== last[0] || first[1] !== last[1]) return 'a polygon ring is not closed'
  }
  return undefined
}

/** GeoJSON geometry check: Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon. */
export function geometryProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'value is not a GeoJSON geometry'
  const { type, coordinates } = value
  switch (type) {
    case 'Point':
      return positionProblem(coordinates)
    case 'MultiPoint':
      return positionsProblem(coordinates, 1)
    case 'LineString':
      return positionsProblem(coordinates, 2)
    case 'MultiLineString':
      if (!Array.isArray(coordinates) || coordinates.length === 0) return 'needs at least one line'
      return coordinates.map((line) => positionsProblem(line, 2)).find(Boolean)
    case 'Polygon':
      return ringsProblem(coordinates)
    case 'MultiPolygon':
      if (!Array.isArray(coordinates) || coordinates.length === 0) return 'needs at least one polygon'
      return coordinates.map(ringsProblem).find(Boolean)
    default:
      return `unsupported geometry type ${JSON.stringify(type) ?? String(type)}`
  }
}

function attributeProblems(name: string, attribute: unknown): string[] {
  if (!isRecord(attribute)) {
    return [`"${name}" must be an object with type Property, GeoProperty or Relationship${Array.isArray(attribute) ? ' (not an array)' : ''}`]
  }
  const kind = attribute.type
  if (kind !== 'Property' && kind !== 'GeoProperty' && kind !== 'Relationship') {
    return [`"${name}" has type ${JSON.stringify(kind) ?? 'undefined'} (expected Property, GeoProperty or Relationship)`]
  }
  const problems: string[] = []
  if (name === LOCATION && kind !== 'GeoProperty') problems.push(`"${name}" must be a GeoProperty`)
  const extra = Object.keys(attribute).filter((key) => !ALLOWED_KEYS[kind].includes(key))
  if (extra.length > 0) problems.push(`"${name}" (${kind}) has unexpected member(s) ${extra.join(', ')}`)
  if (kind === 'Property' && (attribute.value === undefined || attribute.value === null)) {
    problems.push(`"${name}" (Property) needs a non-null value`)
  }
  if (kind === 'GeoProperty') {
    const problem = geometryProblem(attribute.value)
    if (problem) problems.push(`"${name}" (GeoProperty): ${problem}`)
  }
  if (kind === 'Relationship') {
    const { object } = attribute
    const targets = Array.isArray(object) ? object : [object]
    if (targets.length === 0 || !targets.every((target) => typeof target === 'string' && URI.test(target))) {
      problems.push(`"${name}" (Relationship) needs an object that is a URI or a list of URIs`)
    }
  }
  if (attribute.observedAt !== undefined) {
    const observedAt = attribute.observedAt
    if (typeof observedAt !== 'string' || !ISO_DATE_TIME.test(observedAt) || Number.isNaN(Date.parse(observedAt))) {
      problems.push(`"${name}".observedAt is not an ISO 8601 date-time with a time zone`)
    }
  }
  if (attribute.unitCode !== undefined && (typeof attribute.unitCode !== 'string' || attribute.unitCode.trim() === '')) {
    problems.push(`"${name}".unitCode must be a non-empty string`)
  }
  return problems
}

/**
 * Validates NGSI-LD (normalized) entities against a layer: ids `urn:ngsi-ld:<Type>:<x>`, unique;
 * type equal to the layer's entityType; only the layer's attributes (and `location`), each a
 * Property, GeoProperty or Relationship of the right shape. Returns the problems, empty if none.
 */
export function sampleEntityProblems(
  entities: unknown,
  layer: { entityType: string; attributes: readonly string[] },
  maxEntities: number = MAX_SAMPLE_ENTITIES,
): string[] {
  if (!Array.isArray(entities)) return ['expected a JSON array of entities']
  if (entities.length === 0) return ['no entity given']
  const problems: string[] = []
  if (entities.length > maxEntities) problems.push(`${entities.length} entities given (at most ${maxEntities})`)
  const allowed = new Set([...layer.attributes, LOCATION])
  const idPattern = new RegExp(`^urn:ngsi-ld:${escapeRegExp(layer.entityType)}:[^\\s:][^\\s]*$`)
  const seen = new Set<string>()
  entities.forEach((entity, index) => {
    const at = `entity ${index}`
    if (!isRecord(entity)) {
      problems.push(`${at} is not an object`)
      return
    }
    const { id, type } = entity
    if (typeof id !== 'string' || !idPattern.test(id) || id.length > 256) {
      problems.push(`${at}: id ${JSON.stringify(id) ?? 'undefined'} is not "urn:ngsi-ld:${layer.entityType}:<id>"`)
    } else if (seen.has(id)) {
      problems.push(`${at}: id ${id} is used twice`)
    } else {
      seen.add(id)
    }
    if (type !== layer.entityType) {
      problems.push(`${at}: type ${JSON.stringify(type) ?? 'undefined'} is not "${layer.entityType}"`)
    }
    for (const [name, attribute] of Object.entries(entity)) {
      if (name === 'id' || name === 'type' || name === '@context') continue
      if (!allowed.has(name)) {
        problems.push(`${at}: unknown attribute "${name}" (allowed: ${[...allowed].join(', ')})`)
        continue
      }
      for (const problem of attributeProblems(name, attribute)) problems.push(`${at}: ${problem}`)
    }
  })
  return problems
}

/** Parses the answer as JSON and validates it; invalid output throws TaskOutputError listing the problems. */
export function parseSampleEntities(text: string, input: Pick<SampleDataInput, 'entityType' | 'attributes'>): NgsiLdEntity[] {
  const json = extractJson(text, '[')
  if (json === undefined) throw new TaskOutputError('sample-data', ['the answer is not JSON'])
  const problems = sampleEntityProblems(json, input)
  if (problems.length > 0) throw new TaskOutputError('sample-data', problems)
  return json as NgsiLdEntity[]
}

export const sampleDataTask = defineTask({
  name: 'sample-data',
  description: 'Generate sample NGSI-LD entities for a map layer',
  inputSchema: sampleDataInputSchema,
  defaults: { max_tokens: 3000, temperature: 0.6 },
  buildPrompt(input: SampleDataInput) {
    const where = input.centre
      ? 'Place each location within about 3 km of the centre given below.'
      : 'Place the locations within one plausible European city.'
    return assemblePrompt({
      instructions: [
        `Generate ${input.count} realistic sample entities for a city dashboard map layer, in NGSI-LD normalized ` +
          'form. Rules:\n' +
          '- "id" is "urn:ngsi-ld:<entity type>:<short unique suffix>", with the entity type given below.\n' +
          '- "type" is exactly the entity type given below.\n' +
          '- Besides "id" and "type", use only the attributes listed below, plus "location".\n' +
          '- "location" is {"type": "GeoProperty", "value": {"type": "Point", "coordinates": [longitude, latitude]}}.\n' +
          '- Measurements and states are {"type": "Property", "value": …} with an optional "observedAt" ' +
          '(ISO 8601 with time zone) and optional "unitCode" (UN/CEFACT code).\n' +
          '- Links to other entities are {"type": "Relationship", "object": "urn:ngsi-ld:<Type>:<id>"}.\n' +
          `- ${where}`,
      ],
      data: [
        ['entity-type', input.entityType],
        ['attributes', input.attributes],
        ['layer-name', input.name],
        ['centre', input.centre],
      ],
      output: 'a JSON array of entities and nothing else (no comments, no Markdown).',
    })
  },
  parseOutput: (text: string, input: SampleDataInput) => parseSampleEntities(text, input),
  formatOutput: (output: NgsiLdEntity[]) => JSON.stringify(output, null, 2),
})
