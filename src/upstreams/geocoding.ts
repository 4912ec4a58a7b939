import { z } from 'zod'

import { UpstreamError } from './errors'
import { cleanText, endpoint, getParsed } from './http'
import type { FetchLike } from './outbound'

/*
 * Upstream: OpenCage Geocoding API, forward geocoding (https://opencagedata.com/api).
 *
 *   GET {baseUrl}/geocode/v1/json?q={query}&key={API key}&limit={1..10}&no_annotations=1&no_record=1[&language=de]
 *
 * (`no_record=1` asks OpenCage not to log the query text; `bounds={west},{south},{east},{north}` restricts the
 * results to that box, the city's area: results outside it are dropped here too.) 200 body, fields we read marked *:
 *   {
 *     "documentation": "https://opencagedata.com/api", "licenses": [...],
 *     "rate": {"limit": 2500, "remaining": 2499, "reset": 1717286400},
 *     "results": [{
 *       "bounds": {"northeast": {"lat": 52.67*, "lng": 13.76*}, "southwest": {"lat": 52.33*, "lng": 13.08*}},
 *       "components": {"_type": "city"*, "city": "Berlin", "country": "Germany", "country_code": "de"*, ...},
 *       "confidence": 4*,                                    (1..10; 10 = most precise)
 *       "formatted": "Berlin, Germany"*,
 *       "geometry": {"lat": 52.5170365*, "lng": 13.3888599*}
 *     }],
 *     "status": {"code": 200, "message": "OK"},
 *     "total_results": 1
 *   }
 * No match is a 200 with `"results": []`. Errors carry the same envelope with
 * `"status": {"code": N, "message": "..."}` and empty results:
 *   400 invalid request (e.g. missing q), 401 invalid or missing API key, 402 quota exceeded,
 *   403 key disabled/blocked, 404 invalid endpoint, 405 method not allowed, 408 timeout,
 *   410 request too long, 426 https required, 429 too many requests, 503 server error.
 *
 * Output (`GeocodeResponse`): the starred fields per result, validated; results without valid
 * coordinates or label are dropped; `results` missing altogether is a bad response.
 */

export const DEFAULT_GEOCODING_BASE_URL = 'https://api.opencagedata.com'

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/

const LIMIT_MESSAGE = 'must be a whole number from 1 to 10'

const BBOX_MESSAGE = 'must be four numbers west,south,east,north (west < east, south < north, at most 5° wide)'

/** The widest area a search is bounded to: a city and its surroundings, not a region. */
export const MAX_BBOX_DEGREES = 5

/** [west, south, east, north] in degrees. */
export type Bbox = [number, number, number, number]

/** "west,south,east,north" as text, or the four numbers; a box of a city's size. */
export const bboxSchema = z
  .union([z.string(), z.array(z.number())], { error: BBOX_MESSAGE })
  .transform((value) =>
    typeof value !== 'string'
      ? value
      : value.length > 120
        ? []
        : value.split(',').map((part) => (/^\s*-?\d+(\.\d+)?\s*$/.test(part) ? Number(part) : Number.NaN)),
  )
  .refine(
    (box): box is Bbox => {
      if (box.length !== 4 || !box.every(Number.isFinite)) return false
      const [west, south, east, north] = box
      const inRange = [west, east].every((lon) => lon >= -180 && lon <= 180) && [south, north].every((lat) => lat >= -90 && lat <= 90)
      return inRange && west < east && south < north && east - west <= MAX_BBOX_DEGREES && north - south <= MAX_BBOX_DEGREES
    },
    { message: BBOX_MESSAGE },
  )
  .transform((box) => box as Bbox)

/** The point is inside the box (edges included). */
export const insideBbox = ([west, south, east, north]: Bbox, lon: number, lat: number) => lon >= west && lon <= east && lat >= south && lat <= north

/** The box as OpenCage's `bounds` parameter, coordinates to 6 decimals. */
export const bboxParameter = (box: Bbox) => box.map((value) => String(Math.round(value * 1e6) / 1e6)).join(',')

export const geocodeQuerySchema = z.object({
  q: z
    .string({ error: 'is required' })
    .trim()
    .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not contain control characters')
    .transform((text) => text.replace(/\s+/g, ' '))
    .pipe(z.string().min(2, 'must be at least 2 characters').max(200, 'must be at most 200 characters')),
  /** Results wanted, 1..10 (default 5); numeric text accepted. */
  limit: z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: LIMIT_MESSAGE })
    .pipe(z.number().int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(10, LIMIT_MESSAGE))
    .optional()
    .transform((value) => value ?? 5),
  /** Preferred language of the labels, e.g. "de" or "pt-BR". */
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'must be a language tag such as "de" or "pt-BR"')
    .optional(),
  /** The city's area: only places inside it are searched for and returned. */
  bbox: bboxSchema.optional(),
})

export type GeocodeQuery = z.infer<typeof geocodeQuerySchema>

/** The cache key of a (validated) query: case-insensitive in the text. */
export const geocodeCacheKey = (query: GeocodeQuery) =>
  `geocode:${query.language ?? ''}:${query.limit}:${query.bbox ? bboxParameter(query.bbox) : ''}:${query.q.toLowerCase()}`

export type GeocodeResult = {
  /** Display label, e.g. "Berlin, Germany". */
  label: string
  lat: number
  lon: number
  /** What was found: "city", "road", "building"… */
  type: string | null
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null
  /** OpenCage precision, 1..10 (10 = within 250 m). */
  confidence: number | null
  /** [west, south, east, north], for fitting the map. */
  bounds: [number, number, number, number] | null
}

export type GeocodeResponse = { results: GeocodeResult[] }

const latitude = z.number().min(-90).max(90)
const longitude = z.number().min(-180).max(180)
const point = z.object({ lat: latitude, lng: longitude })

const openCageResultSchema = z.object({
  formatted: z.string(),
  geometry: point,
  components: z
    .object({ _type: z.string().nullish().catch(null), country_code: z.string().nullish().catch(null) })
    .nullish()
    .catch(null),
  confidence: z.number().int().min(0).max(10).nullish().catch(null),
  bounds: z.object({ northeast: point, southwest: point }).nullish().catch(null),
})

const openCageResponseSchema = z.object({ results: z.array(z.unknown()).max(100) })

/** Reduces a 200 body to a GeocodeResponse, or undefined when it is not the documented shape. */
export function toGeocodeResponse(body: unknown): GeocodeResponse | undefined {
  const parsed = openCageResponseSchema.safeParse(body)
  if (!parsed.success) return undefined
  const results: GeocodeResult[] = []
  for (const item of parsed.data.results) {
    const result = openCageResultSchema.safeParse(item)
    if (!result.success) continue
    const { formatted, geometry, components, confidence, bounds } = result.data
    const label = cleanText(formatted, 200)
    if (label === '') continue
    const type = components?._type
    const country = components?.country_code
    results.push({
      label,
      lat: geometry.lat,
      lon: geometry.lng,
      type: type && /^[a-z_]{1,40}$/.test(type) ? type : null,
      countryCode: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
      confidence: confidence ?? null,
      bounds: bounds ? [bounds.southwest.lng, bounds.southwest.lat, bounds.northeast.lng, bounds.northeast.lat] : null,
    })
  }
  return { results }
}

export type GeocodeOptions = {
  /** GEOCODING_API_URL; the OpenCage API by default. */
  baseUrl?: string
  /** GEOCODING_API_KEY; without one the call fails with 503 before any request. */
  apiKey?: string
  q: string
  limit?: number | string
  language?: string
  /** [west, south, east, north]: only places inside. */
  bbox?: Bbox | string
  fetch?: FetchLike
  timeoutMs?: number
  signal?: AbortSignal
}

/**
 * Places matching a free-text query, best first. No match is `{results: []}`. Throws `UpstreamError`
 * (503 not configured, 504 timeout, 429 upstream rate limit or quota, 502 anything else wrong
 * upstream) and `ZodError` for an unusable query.
 */
export async function geocode(options: GeocodeOptions): Promise<GeocodeResponse> {
  const query = geocodeQuerySchema.parse({ q: options.q, limit: options.limit, language: options.language, bbox: options.bbox })
  const apiKey = options.apiKey?.trim()
  const url = endpoint(options.baseUrl?.trim() || DEFAULT_GEOCODING_BASE_URL, '/geocode/v1/json')
  if (!apiKey || !url) throw new UpstreamError('geocoding', 'not-configured')
  url.searchParams.set('q', query.q)
  url.searchParams.set('limit', String(query.limit))
  url.searchParams.set('no_annotations', '1')
  url.searchParams.set('no_record', '1')
  if (query.language) url.searchParams.set('language', query.language)
  if (query.bbox) url.searchParams.set('bounds', bboxParameter(query.bbox))
  url.searchParams.set('key', apiKey)

  const response = await getParsed('geocoding', url, options, toGeocodeResponse)
  // `bounds` is a strong hint to OpenCage, not a promise: what lies outside the city is dropped.
  const { bbox } = query
  const results = bbox ? response.results.filter((result) => insideBbox(bbox, result.lon, result.lat)) : response.results
  return { results: results.slice(0, query.limit) }
}
