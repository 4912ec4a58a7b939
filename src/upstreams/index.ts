/** Upstream clients behind the weather and geocoding proxy routes: validated in, reduced out, key kept in. */
export { UpstreamError, type UpstreamErrorReason, type UpstreamService } from './errors'
export { DEFAULT_TIMEOUT_MS, MAX_RESPONSE_BYTES } from './http'
export type { FetchLike } from './outbound'
export {
  conditionText,
  DEFAULT_WEATHER_BASE_URL,
  fetchWeather,
  reportInLanguage,
  toWeatherReport,
  weatherCacheKey,
  weatherQuerySchema,
  weatherRequestSchema,
  type ConditionTexts,
  type FetchWeatherOptions,
  type WeatherQuery,
  type WeatherReport,
  type WeatherRequest,
} from './weather'
export {
  bboxParameter,
  bboxSchema,
  DEFAULT_GEOCODING_BASE_URL,
  geocode,
  geocodeCacheKey,
  geocodeQuerySchema,
  insideBbox,
  MAX_BBOX_DEGREES,
  toGeocodeResponse,
  type Bbox,
  type GeocodeOptions,
  type GeocodeQuery,
  type GeocodeResponse,
  type GeocodeResult,
} from './geocoding'
