import { type RecordedRequest, startStandIn } from './requests'

/**
 * A local stand-in for the OpenWeatherMap current weather API, used by the tests and by `npm run demo` (see src/upstreams/weather.ts for the
 * documented shape): `GET /data/2.5/weather?lat&lon&appid&units=metric`, with its error bodies.
 * Every request is recorded. `mode` switches the behaviour at any time:
 *
 * - ok            documented behaviour: 401 for a missing/wrong key, 400 for bad coordinates, else weather
 * - invalid-key   401 whatever the key
 * - rate-limit    429 (with `Retry-After: retryAfter` when set)
 * - server-error  500 with an HTML body that echoes the request URL, key included (a careless upstream)
 * - slow          the right answer after `delayMs`
 * - slow-body     headers at once, the body after `delayMs`
 * - garbage       200, `application/json`, body not JSON
 * - wrong-shape   200, JSON of the wrong shape
 * - huge          200, a valid-looking JSON body of ~2 MB
 * - redirect      302 to /elsewhere on the same server (which records a hit if followed)
 */

export type FakeWeatherMode =
  | 'ok'
  | 'invalid-key'
  | 'rate-limit'
  | 'server-error'
  | 'slow'
  | 'slow-body'
  | 'garbage'
  | 'wrong-shape'
  | 'huge'
  | 'redirect'

export type FakeWeather = {
  url: string
  apiKey: string
  mode: FakeWeatherMode
  delayMs: number
  /** Sent as Retry-After in rate-limit mode when set. */
  retryAfter: string | undefined
  requests: RecordedRequest[]
  close(): Promise<void>
}

export const INVALID_KEY_BODY = {
  cod: 401,
  message: 'Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.',
}

export const RATE_LIMIT_BODY = {
  cod: 429,
  message:
    'Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price',
}

/** Mild Atlantic weather for the demo cities (src/seed), observed within the last ten minutes. */
const DEMO_STATIONS = [
  { name: 'Santander', country: 'ES', lat: 43.4623, lon: -3.81, temp: 16.4, feels: 15.9, humidity: 78, pressure: 1019, wind: 5.2, deg: 300, condition: { id: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' } },
  { name: 'Porto', country: 'PT', lat: 41.1579, lon: -8.6291, temp: 18.1, feels: 17.8, humidity: 71, pressure: 1021, wind: 4.4, deg: 320, condition: { id: 801, main: 'Clouds', description: 'few clouds', icon: '02d' } },
]

/** The documented 200 body for a point: a demo city's (within ~30 km) or one deterministic in the coordinates. */
export function weatherBody(lat: number, lon: number) {
  const station = DEMO_STATIONS.find((known) => Math.abs(known.lat - lat) < 0.3 && Math.abs(known.lon - lon) < 0.3)
  if (station) {
    return {
      coord: { lon: station.lon, lat: station.lat },
      weather: [station.condition],
      base: 'stations',
      main: { temp: station.temp, feels_like: station.feels, temp_min: station.temp - 2.3, temp_max: station.temp + 1.9, pressure: station.pressure, humidity: station.humidity },
      visibility: 10000,
      wind: { speed: station.wind, deg: station.deg },
      clouds: { all: 60 },
      dt: Math.floor(Date.now() / 600_000) * 600,
      sys: { country: station.country },
      timezone: 0,
      name: station.name,
      cod: 200,
    }
  }
  return {
    coord: { lon, lat },
    weather: [{ id: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' }],
    base: 'stations',
    main: {
      temp: Math.round((15 + lat / 10) * 10) / 10,
      feels_like: Math.round((14 + lat / 10) * 10) / 10,
      temp_min: 12.1,
      temp_max: 19.4,
      pressure: 1016,
      humidity: 62,
      sea_level: 1016,
      grnd_level: 1011,
    },
    visibility: 10000,
    wind: { speed: 4.1, deg: 250, gust: 7.3 },
    rain: { '1h': 0.25 },
    clouds: { all: 75 },
    dt: 1717243200,
    sys: { type: 2, id: 2011538, country: 'DE', sunrise: 1717210000, sunset: 1717269000 },
    timezone: 7200,
    id: 2950159,
    name: 'Fakeburg',
    cod: 200,
  }
}

const COORDINATE = /^-?\d+(\.\d+)?$/

export async function startFakeWeather(
  options: { apiKey?: string; mode?: FakeWeatherMode; delayMs?: number; retryAfter?: string } = {},
): Promise<FakeWeather> {
  const service = await startStandIn(({ request, response, url, json, later }) => {
    if (url.pathname === '/elsewhere') return json(200, weatherBody(0, 0))

    switch (fake.mode) {
      case 'invalid-key':
        return json(401, INVALID_KEY_BODY)
      case 'rate-limit':
        return json(429, RATE_LIMIT_BODY, fake.retryAfter ? { 'retry-after': fake.retryAfter } : {})
      case 'server-error':
        response.writeHead(500, { 'content-type': 'text/html' })
        return response.end(`<html><body>Internal error while handling ${request.url}</body></html>`)
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' })
        return response.end('<html>definitely not json')
      case 'wrong-shape':
        return json(200, { cod: 200, list: [{ temperature: 'warm' }] })
      case 'huge':
        return json(200, { ...weatherBody(1, 1), padding: 'x'.repeat(2 * 1024 * 1024) })
      case 'redirect':
        response.writeHead(302, { location: `/elsewhere${url.search}` })
        return response.end()
      case 'slow-body':
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write('{"coord":')
        return later(fake.delayMs, () => response.end(JSON.stringify(weatherBody(0, 0)).slice('{"coord":'.length)))
      case 'slow':
        return later(fake.delayMs, () => answer())
      case 'ok':
        return answer()
    }

    function answer() {
      if (url.pathname !== '/data/2.5/weather') return json(404, { cod: '404', message: 'Internal error' })
      if (url.searchParams.get('appid') !== fake.apiKey) return json(401, INVALID_KEY_BODY)
      const lat = url.searchParams.get('lat')
      const lon = url.searchParams.get('lon')
      if (lat === null || lon === null) return json(400, { cod: '400', message: 'Nothing to geocode' })
      if (!COORDINATE.test(lat) || Math.abs(Number(lat)) > 90) return json(400, { cod: '400', message: 'wrong latitude' })
      if (!COORDINATE.test(lon) || Math.abs(Number(lon)) > 180) return json(400, { cod: '400', message: 'wrong longitude' })
      return json(200, weatherBody(Number(lat), Number(lon)))
    }
  })

  const fake: FakeWeather = {
    url: service.url,
    apiKey: options.apiKey ?? 'fake-weather-key-0123456789',
    mode: options.mode ?? 'ok',
    delayMs: options.delayMs ?? 1_000,
    retryAfter: options.retryAfter,
    requests: service.requests,
    close: service.close,
  }
  return fake
}
