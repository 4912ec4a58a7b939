import { describe, expect, it } from 'vitest'

import { errorResponse } from '@/server/errors'
import { UpstreamError } from '@/upstreams/errors'

const request = { method: 'GET', url: 'http://dashboard.test/api/geocode?q=Berlin', headers: new Headers({ 'x-request-id': 'req-1' }) }

describe('errorResponse for an upstream failure', () => {
  it.each([
    [new UpstreamError('geocoding', 'not-configured'), 503, 'Geocoding service is not configured'],
    [new UpstreamError('weather', 'timeout'), 504, 'Weather service did not answer in time'],
    [new UpstreamError('weather', 'upstream-error', { upstreamStatus: 500 }), 502, 'Weather service is unavailable'],
  ])('answers %s with its status and message, without Retry-After', async (error, status, message) => {
    const response = errorResponse(error, request)
    expect(response.status).toBe(status)
    expect(response.headers.get('retry-after')).toBeNull()
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ error: message, requestId: 'req-1' })
  })

  it('answers a rate limit with 429 and Retry-After, 60 s when the upstream named none', async () => {
    const named = errorResponse(new UpstreamError('geocoding', 'rate-limited', { upstreamStatus: 429, retryAfterSeconds: 5 }), request)
    expect(named.status).toBe(429)
    expect(named.headers.get('retry-after')).toBe('5')
    expect(await named.json()).toEqual({ error: 'Geocoding service is rate limited; try again later', requestId: 'req-1' })
    expect(errorResponse(new UpstreamError('weather', 'rate-limited', { upstreamStatus: 402 }), request).headers.get('retry-after')).toBe('60')
  })
})
