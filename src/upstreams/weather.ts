import { z } from 'zod'

import { DEFAULT_LOCALE, LOCALES } from '@/i18n/locales'

import { UpstreamError } from './errors'
import { cleanText, endpoint, getParsed } from './http'
import type { FetchLike } from './outbound'

/*
 * Upstream: OpenWeatherMap "Current weather data" API (https://openweathermap.org/current).
 *
 *   GET {baseUrl}/data/2.5/weather?lat={lat}&lon={lon}&appid={API key}&units=metric
 *
 * 200 (units=metric: °C, m/s, hPa, metres, mm), fields we read marked *:
 *   {
 *     "coord": {"lon": 13.405*, "lat": 52.52*},
 *     "weather": [{"id": 800*, "main": "Clear"*, "description": "clear sky"*, "icon": "01d"*}],
 *     "base": "stations",
 *     "main": {"temp": 21.3*, "feels_like": 20.9*, "temp_min": 20, "temp_max": 23,
 *              "pressure": 1015*, "humidity": 48*, "sea_level": 1015, "grnd_level": 1010},
 *     "visibility": 10000*,
 *     "wind": {"speed": 3.6*, "deg": 240*, "gust": 6.2*},
 *     "rain": {"1h": 0.4*}, "snow": {"1h": 0.1*},          (only when there is some)
 *     "clouds": {"all": 20*},
 *     "dt": 1717243200*,                                    (observation time, Unix seconds UTC)
 *     "sys": {"country": "DE"*, "sunrise": 1717210000, "sunset": 1717269000},
 *     "timezone": 7200, "id": 2950159, "name": "Berlin"*, "cod": 200
 *   }
 * Errors are JSON `{"cod": <number or numeric text>, "message": "..."}`:
 *   400 {"cod":"400","message":"wrong latitude"} / "Nothing to geocode"
 *   401 {"cod":401,"message":"Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}
 *   404 {"cod":"404","message":"city not found"}
 *   429 {"cod":429,"message":"Your account is temporary blocked due to exceeding of requests limitation ..."}
 *   5xx  any body
 *
 * Output (`WeatherReport`): only the starred fields, renamed with units, validated; optional
 * fields that are absent or out of range become null. coord, main.temp and dt are required.
 *
 * Language: the upstream is asked without `lang` (its descriptions are then English) and
 * `reportInLanguage` writes the condition in the reader's language from its code, with the site's
 * own catalogue (src/i18n/messages, `weatherConditions`: the documented codes of
 * https://openweathermap.org/weather-conditions, and a text per group for a code it does not list).
 * So one upstream answer, cached once, serves every language; the language never depends on the
 * upstream honouring `lang` (a compatible service may ignore it, OpenWeatherMap falls back to
 * English for a language it lacks and names some its own way: cz, kr, ua, zh_cn); and the wording
 * is the site's, reviewed with its other messages (every catalogue has every documented code:
 * tests/unit/upstreams/weather.test.ts).
 */

export const DEFAULT_WEATHER_BASE_URL = 'https://api.openweathermap.org'

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

/** A number, or decimal text of one (query strings), rounded to 4 decimals (~11 m): better cache hits, less precision leaked. */
const coordinate = (limit: number) =>
  z
    .union([z.number(), z.string().trim().regex(NUMBER_TEXT, 'must be a number').transform(Number)], {
      error: 'must be a number',
    })
    .pipe(
      z
        .number()
        .min(-limit, `must be between -${limit} and ${limit}`)
        .max(limit, `must be between -${limit} and ${limit}`),
    )
    .transform((value) => Math.round(value * 10_000) / 10_000 + 0)

export const weatherQuerySchema = z.object({
  lat: coordinate(90),
  lon: coordinate(180),
})

export type WeatherQuery = z.infer<typeof weatherQuerySchema>

/** What /api/weather is asked: the point, and the reader's language (one of the site's locales; the default when not said). */
export const weatherRequestSchema = weatherQuerySchema.extend({
  lang: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` }).default(DEFAULT_LOCALE),
})

export type WeatherRequest = z.infer<typeof weatherRequestSchema>

/** The cache key of a (validated) query. */
export const weatherCacheKey = (query: WeatherQuery) => `weather:${query.lat}:${query.lon}`

export type WeatherReport = {
  /** Where the upstream placed the reading (its station grid, not necessarily the requested point). */
  location: { lat: number; lon: number; name: string | null; country: string | null }
  /** Observation time, ISO 8601 UTC. */
  observedAt: string
  temperatureC: number
  feelsLikeC: number | null
  humidityPercent: number | null
  pressureHpa: number | null
  windSpeedMs: number | null
  windDirectionDeg: number | null
  windGustMs: number | null
  cloudinessPercent: number | null
  visibilityM: number | null
  rain1hMm: number | null
  snow1hMm: number | null
  /**
   * OpenWeatherMap condition: code (e.g. 800), group ("Clear", an English identifier), text ("clear
   * sky": the upstream's English, or the reader's language once through `reportInLanguage`), icon ("01d").
   */
  condition: { code: number; main: string; description: string; icon: string | null } | null
}

const optionalNumber = (min: number, max: number) => z.number().min(min).max(max).nullish().catch(null)
const optionalText = z.string().nullish().catch(null)

const owmResponseSchema = z.object({
  coord: z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }),
  weather: z
    .array(
      z.object({
        id: z.number().int(),
        main: z.string(),
        description: z.string(),
        icon: z.string().nullish(),
      }),
    )
    .nullish()
    .catch(null),
  main: z.object({
    temp: z.number().min(-100).max(100),
    feels_like: optionalNumber(-150, 150),
    pressure: optionalNumber(0, 2000),
    humidity: optionalNumber(0, 100),
  }),
  visibility: optionalNumber(0, 1_000_000),
  wind: z
    .object({ speed: optionalNumber(0, 200), deg: optionalNumber(0, 360), gust: optionalNumber(0, 250) })
    .nullish()
    .catch(null),
  rain: z.object({ '1h': optionalNumber(0, 1000) }).nullish().catch(null),
  snow: z.object({ '1h': optionalNumber(0, 1000) }).nullish().catch(null),
  clouds: z.object({ all: optionalNumber(0, 100) }).nullish().catch(null),
  dt: z.number().int().positive(),
  sys: z.object({ country: optionalText }).nullish().catch(null),
  name: optionalText,
})

/** Reduces a 200 body to a WeatherReport, or undefined when it is not the documented shape. */
export function toWeatherReport(body: unknown): WeatherReport | undefined {
  const parsed = owmResponseSchema.safeParse(body)
  if (!parsed.success) return undefined
  const data = parsed.data
  const condition = data.weather?.[0]
  const country = data.sys?.country
  return {
    location: {
      lat: data.coord.lat,
      lon: data.coord.lon,
      name: data.name ? cleanText(data.name, 100) || null : null,
      country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    },
    observedAt: new Date(data.dt * 1000).toISOString(),
    temperatureC: data.main.temp,
    feelsLikeC: data.main.feels_like ?? null,
    humidityPercent: data.main.humidity ?? null,
    pressureHpa: data.main.pressure ?? null,
    windSpeedMs: data.wind?.speed ?? null,
    windDirectionDeg: data.wind?.deg ?? null,
    windGustMs: data.wind?.gust ?? null,
    cloudinessPercent: data.clouds?.all ?? null,
    visibilityM: data.visibility ?? null,
    rain1hMm: data.rain?.['1h'] ?? null,
    snow1hMm: data.snow?.['1h'] ?? null,
    condition: condition
      ? {
          code: condition.id,
          main: cleanText(condition.main, 40),
          description: cleanText(condition.description, 100),
          // Used to build an icon URL: only the documented form ("01d").
          icon: condition.icon && /^\d{2}[dn]$/.test(condition.icon) ? condition.icon : null,
        }
      : null,
  }
}

/** A catalogue's condition texts (src/i18n/messages, `weatherConditions`): by code, and by group (the code's hundreds; 8 for 801–804). */
export type ConditionTexts = { codes: Record<string, string>; groups: Record<string, string> }

const own = (texts: Record<string, string>, key: string) => (Object.hasOwn(texts, key) ? texts[key] : undefined)

/** The text of a condition code in a catalogue: the code's own, else its group's; undefined for a code of no documented group. */
export function conditionText(code: number, texts: ConditionTexts): string | undefined {
  return own(texts.codes, String(code)) ?? own(texts.groups, String(Math.floor(code / 100)))
}

/** The report with its condition written from `texts` (the reader's language); the upstream's text where the catalogue has none. */
export function reportInLanguage(report: WeatherReport, texts: ConditionTexts): WeatherReport {
  const description = report.condition && conditionText(report.condition.code, texts)
  if (!report.condition || !description) return report
  return { ...report, condition: { ...report.condition, description } }
}

export type FetchWeatherOptions = {
  /** WEATHER_API_URL; the OpenWeatherMap API by default. */
  baseUrl?: string
  /** WEATHER_API_KEY; without one the call fails with 503 before any request. */
  apiKey?: string
  lat: number | string
  lon: number | string
  fetch?: FetchLike
  timeoutMs?: number
  signal?: AbortSignal
}

/**
 * Current weather at a point. Throws `UpstreamError` (503 not configured, 504 timeout, 429 upstream
 * rate limit, 502 anything else wrong upstream) and `ZodError` for coordinates out of range.
 */
export async function fetchWeather(options: FetchWeatherOptions): Promise<WeatherReport> {
  const query = weatherQuerySchema.parse({ lat: options.lat, lon: options.lon })
  const apiKey = options.apiKey?.trim()
  const url = endpoint(options.baseUrl?.trim() || DEFAULT_WEATHER_BASE_URL, '/data/2.5/weather')
  if (!apiKey || !url) throw new UpstreamError('weather', 'not-configured')
  url.searchParams.set('lat', String(query.lat))
  url.searchParams.set('lon', String(query.lon))
  url.searchParams.set('units', 'metric')
  url.searchParams.set('appid', apiKey)

  return getParsed('weather', url, options, toWeatherReport)
}
