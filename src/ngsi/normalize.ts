// Any entity representation brokers send (normalized, keyValues/simplified, concise,
// GeoJSON Feature, even NGSI-v2) → one flat shape the dashboard can render.

import { NgsiError } from './errors'
import { isGeometryLike, validateGeometry, type Geometry } from './geojson'
import { shortName, type ContextTerms } from './iri'
import { unitSymbol } from './units'

export type PlainValue = string | number | boolean | null | PlainValue[] | { [key: string]: PlainValue }

export const attributeKinds = ['Property', 'Relationship', 'GeoProperty', 'LanguageProperty', 'VocabProperty', 'JsonProperty', 'ListProperty', 'ListRelationship'] as const
export type AttributeKind = (typeof attributeKinds)[number]

export interface NormalizedValue {
  kind: AttributeKind
  /** The plain value: Property value, Relationship object(s), geometry, picked language, vocab, json, list. */
  value: PlainValue
  observedAt?: string
  unitCode?: string
  /** Display symbol of `unitCode` (°C, µg/m³…). */
  unit?: string
  providedBy?: string | string[]
  createdAt?: string
  modifiedAt?: string
  datasetId?: string
  lang?: string
  /** Every language of a LanguageProperty. */
  languageMap?: Record<string, PlainValue>
  /** All instances of a multi-attribute (datasetId); `value` etc. are the default instance's. */
  instances?: NormalizedValue[]
}

export interface NormalizedEntity {
  id: string
  /** The first type; '' when the broker left it out (e.g. `pick`). */
  type: string
  types: string[]
  attributes: Record<string, NormalizedValue>
  location?: Geometry
  /** Latest `observedAt` of the attributes, else the Smart Data Models `dateObserved`. */
  observedAt?: string
  createdAt?: string
  modifiedAt?: string
}

export interface NormalizeOptions {
  contextTerms?: ContextTerms
  /** Preferred language of LanguageProperty values; then 'en', then the first one. */
  language?: string
}

/** The member of an attribute that carries its value, per kind; concise form is recognised by these keys. */
const VALUE_KEYS: [key: string, kind: AttributeKind][] = [
  ['object', 'Relationship'],
  ['languageMap', 'LanguageProperty'],
  ['vocab', 'VocabProperty'],
  ['json', 'JsonProperty'],
  ['valueList', 'ListProperty'],
  ['objectList', 'ListRelationship'],
  ['value', 'Property'],
]

const ENTITY_MEMBERS = new Set(['id', 'type', '@context', 'scope', 'createdAt', 'modifiedAt', 'deletedAt'])

type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value)

const KINDS: ReadonlySet<unknown> = new Set(attributeKinds)
const isKind = (value: unknown): value is AttributeKind => KINDS.has(value)

/** A normalized or concise attribute (as opposed to a keyValues compound value). */
export function isAttributeObject(value: unknown): value is JsonObject {
  return isObject(value) && (isKind(value.type) || VALUE_KEYS.some(([key]) => key in value))
}

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
/** `YYYY-MM-DDTHH:MM:SS.sssZ` with every field in range but the day's upper bound past the 28th. */
const CANONICAL = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/

/** The number written at `start` of `text` in `length` digits (the shape was checked), read from the character codes: no substring. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0
  for (let index = start; index < start + length; index++) value = value * 10 + text.charCodeAt(index) - 48
  return value
}

/**
 * Already exactly what toISOString() would give back (what brokers send): no Date round trip
 * needed. It runs for every timestamp of every entity: one regular expression (faster than
 * checking character by character), and the calendar only for the 29th to the 31st.
 */
function isCanonicalIso(text: string): boolean {
  if (!CANONICAL.test(text)) return false
  const day = digitsAt(text, 8, 2)
  if (day <= 28) return true
  const year = digitsAt(text, 0, 4)
  const month = digitsAt(text, 5, 2)
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])
}

/** ISO 8601 in UTC; a date-time without zone (seen in real data) is read as UTC, not server-local time. */
export function toIsoDate(value: unknown): string | undefined {
  const text = isObject(value) ? value['@value'] : value
  if (typeof text !== 'string') return undefined
  if (isCanonicalIso(text)) return text
  const trimmed = text.trim()
  const ms = Date.parse(ZONELESS.test(trimmed) ? `${trimmed}Z` : trimmed)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * JSON-LD typed values (`{"@type": "DateTime", "@value": …}`) become plain strings, recursively.
 * Parts that need no change are returned as they are, not copied: a large load would otherwise
 * copy every coordinate list and plain object it reads.
 */
export function plainValue(value: unknown): PlainValue {
  if (value === undefined || value === null) return null
  if (typeof value !== 'object') return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : null
  if (Array.isArray(value)) {
    let copy: PlainValue[] | undefined
    for (let index = 0; index < value.length; index++) {
      const plain = plainValue(value[index])
      if (copy) copy.push(plain)
      else if (plain !== value[index]) copy = [...(value.slice(0, index) as PlainValue[]), plain]
    }
    return copy ?? (value as PlainValue[])
  }
  const object = value as JsonObject
  if ('@value' in object) {
    const raw = object['@value']
    return object['@type'] === 'DateTime' ? (toIsoDate(raw) ?? plainValue(raw)) : plainValue(raw)
  }
  let copy: Record<string, PlainValue> | undefined = isPlainObject(object) ? undefined : {}
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue
    const plain = plainValue(object[key])
    if (!copy && plain !== object[key]) {
      copy = {}
      for (const earlier in object) {
        if (earlier === key) break
        if (Object.hasOwn(object, earlier)) copy[earlier] = object[earlier] as PlainValue
      }
    }
    if (copy) copy[key] = plain
  }
  return copy ?? (object as Record<string, PlainValue>)
}

function references(value: unknown): string | string[] {
  const one = (item: unknown) => (isObject(item) && typeof item.object === 'string' ? item.object : String(item))
  return Array.isArray(value) ? value.map(one) : one(value)
}

export function pickLanguage(map: JsonObject, language = 'en'): PlainValue {
  const chosen = map[language] ?? map.en ?? Object.values(map)[0]
  return plainValue(chosen)
}

function instanceValue(attribute: JsonObject, kind: AttributeKind, language?: string): PlainValue {
  switch (kind) {
    case 'Relationship':
      return references(attribute.object ?? attribute.value)
    case 'ListRelationship':
      return Array.isArray(attribute.objectList) ? attribute.objectList.map((item) => references(item) as string) : []
    case 'LanguageProperty':
      return isObject(attribute.languageMap) ? pickLanguage(attribute.languageMap, language) : plainValue(attribute.value)
    case 'VocabProperty':
      return plainValue(attribute.vocab ?? attribute.value)
    case 'JsonProperty':
      // Opaque JSON: no JSON-LD interpretation.
      return (attribute.json ?? null) as PlainValue
    case 'ListProperty':
      return plainValue(attribute.valueList ?? attribute.value)
    default:
      return plainValue(attribute.value)
  }
}

function normalizeInstance(attribute: JsonObject, options: NormalizeOptions): NormalizedValue {
  // Concise form drops `type`; NGSI-v2 puts its own types there (Number, geo:json…): infer from the keys.
  const typed = isKind(attribute.type)
  let kind = typed ? (attribute.type as AttributeKind) : (VALUE_KEYS.find(([key]) => key in attribute)?.[1] ?? 'Property')
  if (!typed && kind === 'Property' && isGeometryLike(attribute.value)) kind = 'GeoProperty'
  const result: NormalizedValue = { kind, value: instanceValue(attribute, kind, options.language) }
  const observedAt = toIsoDate(attribute.observedAt)
  if (observedAt) result.observedAt = observedAt
  if (typeof attribute.unitCode === 'string') {
    result.unitCode = attribute.unitCode
    const unit = unitSymbol(attribute.unitCode)
    if (unit) result.unit = unit
  }
  if (attribute.providedBy !== undefined) {
    const provider = isObject(attribute.providedBy) ? (attribute.providedBy.object ?? attribute.providedBy.value) : attribute.providedBy
    if (provider !== undefined && provider !== null) result.providedBy = references(provider)
  }
  const createdAt = toIsoDate(attribute.createdAt)
  if (createdAt) result.createdAt = createdAt
  const modifiedAt = toIsoDate(attribute.modifiedAt)
  if (modifiedAt) result.modifiedAt = modifiedAt
  if (typeof attribute.datasetId === 'string') result.datasetId = attribute.datasetId
  if (typeof attribute.lang === 'string') result.lang = attribute.lang
  if (kind === 'LanguageProperty' && isObject(attribute.languageMap)) result.languageMap = plainValue(attribute.languageMap) as Record<string, PlainValue>
  return result
}

/** One attribute in any representation. */
export function normalizeAttribute(raw: unknown, options: NormalizeOptions = {}): NormalizedValue {
  if (Array.isArray(raw) && raw.length > 0 && raw.every(isAttributeObject)) {
    const instances = raw.map((instance) => normalizeInstance(instance, options))
    const fallback = instances.find((instance) => instance.datasetId === undefined) ?? instances[0]
    return { ...fallback, instances }
  }
  if (isAttributeObject(raw)) return normalizeInstance(raw, options)
  if (isGeometryLike(raw)) return { kind: 'GeoProperty', value: plainValue(raw) }
  return { kind: 'Property', value: plainValue(raw) }
}

/** A GeoJSON Feature (Accept: application/geo+json) read back as the entity it describes. */
function featureToEntity(feature: JsonObject): JsonObject {
  const properties = isObject(feature.properties) ? feature.properties : {}
  return { id: feature.id, ...properties, location: properties.location ?? feature.geometry }
}

/** The latest observedAt of the attributes and their instances. */
function latestObservation(attributes: Record<string, NormalizedValue>): string | undefined {
  let best: string | undefined
  for (const name in attributes) {
    const attribute = attributes[name]
    for (const instance of attribute.instances ?? [attribute]) {
      if (instance.observedAt && (!best || instance.observedAt > best)) best = instance.observedAt
    }
  }
  return best
}

export function normalizeEntity(raw: unknown, options: NormalizeOptions = {}): NormalizedEntity {
  if (!isObject(raw)) throw new NgsiError('invalid-response', 'An entity must be a JSON object')
  const source = raw.type === 'Feature' && 'properties' in raw ? featureToEntity(raw) : raw
  if (typeof source.id !== 'string' || !source.id) throw new NgsiError('invalid-response', 'An entity needs a string id')
  const types: string[] = []
  for (const type of Array.isArray(source.type) ? source.type : [source.type]) {
    if (typeof type === 'string') types.push(shortName(type, options.contextTerms))
  }
  const attributes: Record<string, NormalizedValue> = {}
  // Names that needed no shortening first: an IRI whose short name is taken (one term per domain) keeps its full IRI.
  let shortened: [key: string, name: string][] | undefined
  for (const key in source) {
    if (!Object.hasOwn(source, key) || ENTITY_MEMBERS.has(key)) continue
    const name = shortName(key, options.contextTerms)
    if (name === key) attributes[key] = normalizeAttribute(source[key], options)
    else (shortened ??= []).push([key, name])
  }
  for (const [key, name] of shortened ?? []) attributes[name in attributes ? key : name] = normalizeAttribute(source[key], options)
  const entity: NormalizedEntity = { id: source.id, type: types[0] ?? '', types, attributes }
  const location = attributes.location && validateGeometry(attributes.location.value)
  if (location) entity.location = location
  const observedAt = latestObservation(attributes) ?? toIsoDate(attributes.dateObserved?.value)
  if (observedAt) entity.observedAt = observedAt
  const createdAt = toIsoDate(source.createdAt)
  if (createdAt) entity.createdAt = createdAt
  const modifiedAt = toIsoDate(source.modifiedAt)
  if (modifiedAt) entity.modifiedAt = modifiedAt
  return entity
}
