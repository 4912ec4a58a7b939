import { type RecordedRequest, startStandIn } from './requests'

/**
 * A local stand-in for the OpenCage forward geocoding API, used by the tests and by `npm run demo` (see src/upstreams/geocoding.ts for the
 * documented shape): `GET /geocode/v1/json?q&key&limit…`, with OpenCage's error envelope.
 * Every request is recorded. `mode` switches the behaviour at any time:
 *
 * - ok            documented behaviour over a tiny gazetteer (Berlin, Hamburg, two Parises, and places in
 *                 the demo cities Santander and Porto, plus any `places` given); no match → [];
 *                 `bounds=west,south,east,north` keeps the places inside that box (as OpenCage restricts to it)
 * - invalid-key   401 whatever the key
 * - quota         402 (quota exceeded)
 * - rate-limit    429 (with `Retry-After: retryAfter` when set)
 * - server-error  503 whose message echoes the request URL, key included (a careless upstream)
 * - slow          the right answer after `delayMs`
 * - garbage       200, `application/json`, body not JSON
 * - wrong-shape   200, JSON without `results`
 * - junk-results  200, one good result among malformed ones
 */

export type FakeGeocodingMode =
  | 'ok'
  | 'invalid-key'
  | 'quota'
  | 'rate-limit'
  | 'server-error'
  | 'slow'
  | 'garbage'
  | 'wrong-shape'
  | 'junk-results'

export type FakeGeocoding = {
  url: string
  apiKey: string
  mode: FakeGeocodingMode
  delayMs: number
  retryAfter: string | undefined
  requests: RecordedRequest[]
  close(): Promise<void>
}

export type Place = {
  /** Found when the query contains this (lower case, no accents), or the address contains the query. */
  match: string
  formatted: string
  lat: number
  lng: number
  type: string
  countryCode: string
  confidence: number
  /** Half the size of the bounds in degrees (latitude; longitude twice that); a city's by default. */
  span?: number
}

const GAZETTEER: Place[] = [
  { match: 'berlin', formatted: 'Berlin, Germany', lat: 52.5170365, lng: 13.3888599, type: 'city', countryCode: 'de', confidence: 4 },
  { match: 'hamburg', formatted: 'Hamburg, Germany', lat: 53.550341, lng: 10.000654, type: 'city', countryCode: 'de', confidence: 4 },
  { match: 'paris', formatted: 'Paris, France', lat: 48.8588897, lng: 2.320041, type: 'city', countryCode: 'fr', confidence: 3 },
  { match: 'paris', formatted: 'Paris, TX 75460, United States of America', lat: 33.6617962, lng: -95.555513, type: 'city', countryCode: 'us', confidence: 5 },
  // The demo cities (src/seed): a few places a citizen would look for.
  { match: 'santander', formatted: 'Santander, Cantabria, Spain', lat: 43.4623, lng: -3.80998, type: 'city', countryCode: 'es', confidence: 5 },
  { match: 'pereda', formatted: 'Paseo de Pereda, 39004 Santander, Spain', lat: 43.46166, lng: -3.80444, type: 'road', countryCode: 'es', confidence: 9, span: 0.002 },
  { match: 'sardinero', formatted: 'Playa del Sardinero, 39005 Santander, Spain', lat: 43.47671, lng: -3.78676, type: 'beach', countryCode: 'es', confidence: 9, span: 0.003 },
  { match: 'magdalena', formatted: 'Palacio de la Magdalena, 39005 Santander, Spain', lat: 43.46875, lng: -3.76571, type: 'castle', countryCode: 'es', confidence: 10, span: 0.001 },
  // Streets of the demo broker's Santander stations (src/seed names them), so a citizen finds them.
  { match: 'general davila', formatted: 'Calle General Dávila, 39005 Santander, Spain', lat: 43.46189, lng: -3.81574, type: 'road', countryCode: 'es', confidence: 9, span: 0.004 },
  { match: 'castelar', formatted: 'Calle Castelar, 39004 Santander, Spain', lat: 43.46545, lng: -3.79591, type: 'road', countryCode: 'es', confidence: 9, span: 0.002 },
  { match: 'isabel ii', formatted: 'Calle Isabel II, 39002 Santander, Spain', lat: 43.46292, lng: -3.80746, type: 'road', countryCode: 'es', confidence: 9, span: 0.001 },
  { match: 'hermida', formatted: 'Calle Marqués de la Hermida, 39009 Santander, Spain', lat: 43.44985, lng: -3.82456, type: 'road', countryCode: 'es', confidence: 9, span: 0.004 },
  { match: 'albericia', formatted: 'Avenida de la Albericia, 39012 Santander, Spain', lat: 43.47228, lng: -3.82765, type: 'road', countryCode: 'es', confidence: 9, span: 0.003 },
  { match: 'alonso vega', formatted: 'Calle Camilo Alonso Vega, 39007 Santander, Spain', lat: 43.46716, lng: -3.82037, type: 'road', countryCode: 'es', confidence: 9, span: 0.003 },
  { match: 'primero de mayo', formatted: 'Calle Primero de Mayo, 39011 Santander, Spain', lat: 43.45488, lng: -3.85017, type: 'road', countryCode: 'es', confidence: 9, span: 0.003 },
  { match: 'avenida del faro', formatted: 'Avenida del Faro, 39012 Santander, Spain', lat: 43.48515, lng: -3.79513, type: 'road', countryCode: 'es', confidence: 9, span: 0.004 },
  { match: 'porto', formatted: 'Porto, Portugal', lat: 41.1579, lng: -8.6291, type: 'city', countryCode: 'pt', confidence: 5 },
  { match: 'aliados', formatted: 'Avenida dos Aliados, 4000-064 Porto, Portugal', lat: 41.14836, lng: -8.61107, type: 'road', countryCode: 'pt', confidence: 9, span: 0.002 },
  { match: 'ribeira', formatted: 'Cais da Ribeira, 4050-510 Porto, Portugal', lat: 41.14063, lng: -8.61331, type: 'road', countryCode: 'pt', confidence: 9, span: 0.002 },
]

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

const round7 = (value: number) => Math.round(value * 1e7) / 1e7

export function openCageResult(place: Omit<Place, 'match'>) {
  const span = place.span ?? 0.1
  return {
    annotations: { timezone: { name: 'Europe/Berlin' } },
    bounds: {
      northeast: { lat: round7(place.lat + span), lng: round7(place.lng + 2 * span) },
      southwest: { lat: round7(place.lat - span), lng: round7(place.lng - 2 * span) },
    },
    components: { 'ISO_3166-1_alpha-2': place.countryCode.toUpperCase(), _category: 'place', _type: place.type, country_code: place.countryCode },
    confidence: place.confidence,
    formatted: place.formatted,
    geometry: { lat: place.lat, lng: place.lng },
  }
}

/** OpenCage's envelope around results or an error status. */
export function envelope(code: number, message: string, results: unknown[] = []) {
  return {
    documentation: 'https://opencagedata.com/api',
    licenses: [{ name: 'see attribution guide', url: 'https://opencagedata.com/credits' }],
    rate: { limit: 2500, remaining: 2499, reset: 1717286400 },
    results,
    status: { code, message },
    stay_informed: { blog: 'https://blog.opencagedata.com' },
    thanks: 'For using an OpenCage API',
    timestamp: { created_http: 'Sat, 01 Jun 2024 12:00:00 GMT', created_unix: 1717243200 },
    total_results: results.length,
  }
}

export async function startFakeGeocoding(
  options: { apiKey?: string; mode?: FakeGeocodingMode; delayMs?: number; retryAfter?: string; places?: Place[] } = {},
): Promise<FakeGeocoding> {
  const gazetteer = [...GAZETTEER, ...(options.places ?? [])]

  const service = await startStandIn(({ request, response, url, json, later }) => {
    switch (fake.mode) {
      case 'invalid-key':
        return json(401, envelope(401, 'invalid API key'))
      case 'quota':
        return json(402, envelope(402, 'quota exceeded'))
      case 'rate-limit':
        return json(429, envelope(429, 'too many requests'), fake.retryAfter ? { 'retry-after': fake.retryAfter } : {})
      case 'server-error':
        return json(503, envelope(503, `internal server error for ${request.url}`))
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' })
        return response.end('{"results": [')
      case 'wrong-shape':
        return json(200, { status: { code: 200, message: 'OK' }, features: [] })
      case 'junk-results':
        return json(
          200,
          envelope(200, 'OK', [
            { formatted: 'No geometry' },
            { formatted: 'Bad latitude', geometry: { lat: 123, lng: 0 } },
            { formatted: '   ', geometry: { lat: 1, lng: 1 } },
            'not an object',
            openCageResult({ formatted: 'Berlin, Germany', lat: 52.5, lng: 13.4, type: 'city', countryCode: 'de', confidence: 4 }),
            { ...openCageResult({ formatted: 'Odd\u0000place', lat: 1, lng: 2, type: 'Weird Type!', countryCode: 'xyz', confidence: 4 }), confidence: 'high', bounds: 'none' },
          ]),
        )
      case 'slow':
        return later(fake.delayMs, () => answer())
      case 'ok':
        return answer()
    }

    function answer() {
      if (url.pathname !== '/geocode/v1/json') return json(404, envelope(404, 'invalid API endpoint'))
      const key = url.searchParams.get('key')
      if (!key || key !== fake.apiKey) return json(401, envelope(401, 'invalid API key'))
      const q = url.searchParams.get('q')
      if (!q) return json(400, envelope(400, 'invalid request'))
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 10) || 10)
      // Accents and case aside, as OpenCage: a query naming the place, or a part of its address ("calle").
      const wanted = fold(q)
      const bounds = url.searchParams.get('bounds')?.split(',').map(Number)
      const inBounds = (place: Place) =>
        !bounds || bounds.length !== 4 || (place.lng >= bounds[0] && place.lat >= bounds[1] && place.lng <= bounds[2] && place.lat <= bounds[3])
      const results = gazetteer.filter((place) => (wanted.includes(place.match) || fold(place.formatted).includes(wanted)) && inBounds(place))
        .slice(0, limit)
        .map(({ match: _match, ...place }) => openCageResult(place))
      return json(200, envelope(200, 'OK', results))
    }
  })

  const fake: FakeGeocoding = {
    url: service.url,
    apiKey: options.apiKey ?? 'fake-geocoding-key-9876543210',
    mode: options.mode ?? 'ok',
    delayMs: options.delayMs ?? 1_000,
    retryAfter: options.retryAfter,
    requests: service.requests,
    close: service.close,
  }
  return fake
}
