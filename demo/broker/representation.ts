// How entities are written out: normalized, keyValues (simplified) or concise, projected by
// `attrs`, as JSON, JSON-LD (with @context) or GeoJSON, depending on the request.
//
// Entities are written straight to JSON text: a 1000-entity page is ~1.7 MB, and building
// objects only to stringify them again doubled the time to serve it. The attributes that
// never change are rendered once per entity and form, and reused.

import type { IncomingHttpHeaders } from 'node:http'

import type { AttributeSpec, EntityView, NormalizedAttribute, StaticEntity } from './data'
import { listParam } from './entity-query'
import { badRequest } from './problems'

export const CORE_CONTEXT = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'

export type MediaType = 'application/json' | 'application/ld+json' | 'application/geo+json'
export type AttributeForm = 'normalized' | 'keyValues' | 'concise'

export interface Representation {
  form: AttributeForm
  attrs?: ReadonlySet<string>
  mediaType: MediaType
  /** The client's @context when it sent one (accepted as is), else the core context. */
  context: string
  geometryProperty: string
}

export function parseRepresentation(params: URLSearchParams, headers: IncomingHttpHeaders): Representation {
  const options = new Set([...(listParam(params.get('options')) ?? []), ...(listParam(params.get('format')) ?? [])])
  const keyValues = options.has('keyValues') || options.has('simplified')
  if (keyValues && options.has('concise')) throw badRequest('keyValues and concise cannot be combined')
  const attrs = listParam(params.get('attrs'))
  return {
    form: keyValues ? 'keyValues' : options.has('concise') ? 'concise' : 'normalized',
    attrs: attrs && new Set(attrs),
    mediaType: preferredMediaType(headers.accept),
    context: requestContext(headers),
    geometryProperty: params.get('geometryProperty') ?? 'location',
  }
}

function preferredMediaType(accept: string | undefined): MediaType {
  if (!accept) return 'application/json'
  if (accept.includes('application/geo+json')) return 'application/geo+json'
  const ldIndex = accept.indexOf('application/ld+json')
  const jsonIndex = accept.indexOf('application/json')
  return ldIndex >= 0 && (jsonIndex < 0 || ldIndex < jsonIndex) ? 'application/ld+json' : 'application/json'
}

/** The @context of the request's JSON-LD Link header, else the core context. */
export function requestContext(headers: IncomingHttpHeaders): string {
  const link = Array.isArray(headers.link) ? headers.link[0] : headers.link
  return (link && /<([^>]+)>/.exec(link)?.[1]) || CORE_CONTEXT
}

/** The JSON-LD Link header brokers add to application/json responses. */
export function contextLink(context: string): string {
  return `<${context}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`
}

/** One entity as JSON text. */
export function renderEntity(view: EntityView, representation: Representation): string {
  const { id, type } = view.entity
  const members = attributeMembers(view, representation)
  if (representation.mediaType === 'application/geo+json') {
    const geometry = view.attribute(representation.geometryProperty)
    return `{"id":${JSON.stringify(id)},"type":"Feature","geometry":${geometry?.type === 'GeoProperty' ? JSON.stringify(geometry.value) : 'null'},"properties":{"type":"${type}"${members && `,${members}`}}}`
  }
  const context = representation.mediaType === 'application/ld+json' ? `,"@context":${JSON.stringify(representation.context)}` : ''
  return `{"id":${JSON.stringify(id)},"type":"${type}"${members && `,${members}`}${context}}`
}

/** A page of entities as JSON text: an array, or a FeatureCollection for GeoJSON. */
export function renderEntityList(views: EntityView[], representation: Representation): string {
  const items = views.map((view) => renderEntity(view, representation)).join(',')
  return representation.mediaType === 'application/geo+json' ? `{"type":"FeatureCollection","features":[${items}]}` : `[${items}]`
}

/** The attribute in the requested form, as a plain value ready for JSON. */
export function formatAttribute(attribute: NormalizedAttribute, form: AttributeForm): unknown {
  if (form === 'normalized') return attribute
  const { type, value, object, ...subAttributes } = attribute
  // Simplified and concise forms keep a LanguageProperty's languages as `{languageMap}` (NGSI-LD 1.6 §4.5.18).
  if (type === 'LanguageProperty') return form === 'keyValues' ? { languageMap: attribute.languageMap } : subAttributes
  if (form === 'keyValues') return type === 'Relationship' ? object : value
  if (type === 'Relationship') return { object, ...subAttributes }
  // Concise drops `type`; a bare value is only unambiguous when it is not an object,
  // or is GeoJSON (recognised by its own `type`).
  const bare = Object.keys(subAttributes).length === 0 && (type === 'GeoProperty' || typeof value !== 'object' || value === null || Array.isArray(value))
  return bare ? value : { value, ...subAttributes }
}

const staticMembersCache: Record<AttributeForm, WeakMap<StaticEntity, string>> = {
  normalized: new WeakMap(),
  keyValues: new WeakMap(),
  concise: new WeakMap(),
}

/** `"name":…` members joined with commas: static attributes first, then the changing ones. */
function attributeMembers(view: EntityView, { form, attrs }: Representation): string {
  const { staticAttributes, changingAttributes } = view.model
  if (attrs || view.entity.written) {
    // Written entities skip the static cache: an update may have replaced a static attribute.
    const extras = view.extraAttributes().filter(([name]) => !attrs || attrs.has(name))
    return [
      ...[...staticAttributes, ...changingAttributes].filter((spec) => !attrs || attrs.has(spec.name)).map((spec) => memberText(view, spec, form)),
      ...extras.map(([name, attribute]) => `${JSON.stringify(name)}:${JSON.stringify(formatAttribute(attribute, form))}`),
    ].join(',')
  }
  const cache = staticMembersCache[form]
  let staticPart = cache.get(view.entity)
  if (staticPart === undefined) {
    // One stringify for all of them: much cheaper than one per attribute.
    const members: Record<string, unknown> = {}
    for (const spec of staticAttributes) members[spec.name] = formatAttribute(view.build(spec), form)
    staticPart = JSON.stringify(members).slice(1, -1)
    cache.set(view.entity, staticPart)
  }
  return [staticPart, ...changingAttributes.map((spec) => memberText(view, spec, form))].join(',')
}

function memberText(view: EntityView, spec: AttributeSpec, form: AttributeForm): string {
  return spec.changes === 'reading' && !view.entity.written?.has(spec.name)
    ? readingText(view, spec, form) : `"${spec.name}":${JSON.stringify(formatAttribute(view.build(spec), form))}`
}

/** What formatAttribute gives for a reading, written directly: readings are most of every page. */
function readingText(view: EntityView, spec: AttributeSpec, form: AttributeForm): string {
  const raw = view.readings[spec.name]
  const value = typeof raw === 'number' ? String(raw) : JSON.stringify(raw)
  if (form === 'keyValues') return `"${spec.name}":${value}`
  const unitCode = spec.unitCode ? `,"unitCode":"${spec.unitCode}"` : ''
  const type = form === 'normalized' ? '"type":"Property",' : ''
  return `"${spec.name}":{${type}"value":${value}${unitCode},"observedAt":"${view.observedAt}"}`
}
