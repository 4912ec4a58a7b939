/** Per-client rate limiting: `clientKey` names the client, `createRateLimiter` counts its requests. */
export { UNKNOWN_CLIENT, clientKey, normalizeIp, type ClientKeyOptions } from './clientKey'
export { createRateLimiter, rateLimitHeaders, type RateLimitResult, type RateLimiter, type RateLimiterOptions } from './limiter'
