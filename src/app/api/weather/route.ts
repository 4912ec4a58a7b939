import { env } from '@/env'
import { messagesOf } from '@/i18n/messages'
import { fetchWeather, reportInLanguage, weatherCacheKey, weatherRequestSchema, type WeatherReport } from '@/upstreams'
import { withErrorHandling } from '@/server/errors'
import { proxyCache } from '@/server/services'
import { enforceRateLimit } from '@/server/rateLimit'

export const dynamic = 'force-dynamic'

const WEATHER_FRESH_SECONDS = 600

/**
 * GET /api/weather?lat&lon[&lang] → the current weather there, from the keyed upstream, its
 * condition in `lang` (one of the site's locales, the default one when not given). Public (the map
 * shows it to citizens), so rate-limited per client; the key never leaves the server. The upstream's
 * answer is cached per point, not per language: the condition is written in each reader's language
 * from its code (`reportInLanguage`, src/upstreams/weather.ts), after the cache.
 */
export const GET = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'weather', perClient: 60, overall: 1_200, windowSeconds: 60 })
  const search = new URL(request.url).searchParams
  const query = weatherRequestSchema.parse({ lat: search.get('lat') ?? undefined, lon: search.get('lon') ?? undefined, lang: search.get('lang') ?? undefined })
  const settings = env()
  const { value, ageSeconds } = await proxyCache<WeatherReport>('weather', WEATHER_FRESH_SECONDS).getOrLoad(weatherCacheKey(query), () =>
    fetchWeather({ baseUrl: settings.WEATHER_API_URL, apiKey: settings.WEATHER_API_KEY, lat: query.lat, lon: query.lon }),
  )
  const { weatherConditions } = await messagesOf(query.lang)
  return Response.json(reportInLanguage(value, weatherConditions), {
    headers: { ...limitHeaders, 'Cache-Control': `public, max-age=${Math.max(0, WEATHER_FRESH_SECONDS - ageSeconds)}` },
  })
})
