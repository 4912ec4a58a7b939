import { env } from '@/env'
import { geocode, geocodeCacheKey, geocodeQuerySchema, type GeocodeResponse } from '@/upstreams'
import { withErrorHandling } from '@/server/errors'
import { proxyCache } from '@/server/services'
import { enforceRateLimit } from '@/server/rateLimit'

export const dynamic = 'force-dynamic'

const GEOCODE_FRESH_SECONDS = 86_400

/** GET /api/geocode?q → places matching q, from the keyed upstream; public, rate-limited per client. */
export const GET = withErrorHandling(async (request: Request) => {
  const limitHeaders = await enforceRateLimit(request, { name: 'geocode', perClient: 30, overall: 600, windowSeconds: 60 })
  const query = geocodeQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const settings = env()
  const { value } = await proxyCache<GeocodeResponse>('geocode', GEOCODE_FRESH_SECONDS).getOrLoad(geocodeCacheKey(query), () =>
    geocode({ baseUrl: settings.GEOCODING_API_URL, apiKey: settings.GEOCODING_API_KEY, ...query }),
  )
  return Response.json(value, { headers: { ...limitHeaders, 'Cache-Control': 'public, max-age=3600' } })
})
