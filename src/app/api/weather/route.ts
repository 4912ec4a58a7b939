import { env } from '@/env'
import { fetchWeather, weatherCacheKey, weatherQuerySchema, type WeatherReport } from '@/upstreams'
import { withErrorHandling } from '@/server/errors'
import { proxyCache } from '@/server/services'
import { enforceRateLimit } from '@/server/rateLimit'

export const dynamic = 'force-dynamic'

const WEATHER_FRESH_SECONDS = 600

/**
 * GET /api/weather?lat&lon → the current weather there, from the keyed upstream. Public (the map
 * shows it to citizens), so rate-limited per client; the key never leaves the server.
 */
export const GET = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'weather', perClient: 60, overall: 1_200, windowSeconds: 60 })
  const search = new URL(request.url).searchParams
  const query = weatherQuerySchema.parse({ lat: search.get('lat') ?? undefined, lon: search.get('lon') ?? undefined })
  const settings = env()
  const { value, ageSeconds } = await proxyCache<WeatherReport>('weather', WEATHER_FRESH_SECONDS).getOrLoad(weatherCacheKey(query), () =>
    fetchWeather({ baseUrl: settings.WEATHER_API_URL, apiKey: settings.WEATHER_API_KEY, ...query }),
  )
  return Response.json(value, {
    headers: { ...limitHeaders, 'Cache-Control': `public, max-age=${Math.max(0, WEATHER_FRESH_SECONDS - ageSeconds)}` },
  })
})
