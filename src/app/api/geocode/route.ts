import { env } from '@/env'
import { geocode, geocodeCacheKey, geocodeQuerySchema, type GeocodeResponse } from '@/upstreams'
import { withErrorHandling } from '@/server/errors'
import { proxyCache } from '@/server/services'
import { enforceRateLimit } from '@/server/rateLimit'

export const dynamic = 'force-dynamic'

const GEOCODE_FRESH_SECONDS = 86_400

/**
 * GET /api/geocode?q[&limit][&language][&bbox=west,south,east,north] → places matching q, from the
 * keyed upstream; with `bbox` (the city's area, at most a few degrees) only places inside it.
 * Public, rate-limited per client; bad input is 400 {error}.
 */
export const GET = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'geocode', perClient: 30, overall: 600, windowSeconds: 60 })
  const query = geocodeQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const settings = env()
  const { value } = await proxyCache<GeocodeResponse>('geocode', GEOCODE_FRESH_SECONDS).getOrLoad(geocodeCacheKey(query), () =>
    geocode({ baseUrl: settings.GEOCODING_API_URL, apiKey: settings.GEOCODING_API_KEY, ...query }),
  )
  return Response.json(value, { headers: { ...limitHeaders, 'Cache-Control': 'public, max-age=3600' } })
})
