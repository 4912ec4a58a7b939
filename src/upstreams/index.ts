/** Upstream clients behind the weather and geocoding proxy routes: validated in, reduced out, key kept in. */
export { UpstreamError, type UpstreamErrorReason, type UpstreamService } from './errors'
export { DEFAULT_TIMEOUT_MS, MAX_RESPONSE_BYTES } from './http'
export type { FetchLike } from './outbound'
export {
  DEFAULT_WEATHER_BASE_URL,
  fetchWeather,
  toWeatherReport,
  weatherCacheKey,
  weatherQuerySchema,
  type FetchWeatherOptions,
  type WeatherQuery,
  type WeatherReport,
} from './weather'
export {
  DEFAULT_GEOCODING_BASE_URL,
  geocode,
  geocodeCacheKey,
  geocodeQuerySchema,
  toGeocodeResponse,
  type GeocodeOptions,
  type GeocodeQuery,
  type GeocodeResponse,
  type GeocodeResult,
} from './geocoding'
