// Public API of the NGSI-LD client module (server side only).

export { DEFAULT_CONTEXT_URL, NgsiClient, type NgsiClientOptions, type QueryResult, type StreamResult } from './client'
export { parseAttributeList, parseTypeInfo, parseTypeList, type TypeInfo } from './discovery'
export { errorFromResponse, isRetryable, NgsiError, parseProblem, statedMaximum, type NgsiErrorDetails, type NgsiErrorKind } from './errors'
export { bboxSchema, bboxToGeo, entityQueryParams, entityQuerySchema, geoQuerySchema, type BBox, type EntityQuery, type GeoQuery } from './filters'
export { entityGeometry, featureProperties, isGeometryLike, languagesProperty, toFeature, toFeatureCollection, validateGeometry, type Feature, type FeatureCollection, type Geometry, type Position } from './geojson'
export { encode, getJson, parseLinkHeader, queryString, requestHeaders, type CallOptions, type HttpConfig, type JsonResponse, type LinkValue } from './http'
export { type BrokerAnswer, type BrokerTransport, MAX_ANSWER_BYTES, readBody, undiciTransport } from './transport'
export { contextTermsFrom, shortName, type ContextTerms } from './iri'
export {
  attributeKinds,
  isAttributeObject,
  normalizeAttribute,
  normalizeEntity,
  pickLanguage,
  plainValue,
  toIsoDate,
  type AttributeKind,
  type NormalizedEntity,
  type NormalizedValue,
  type NormalizeOptions,
  type PlainValue,
} from './normalize'
export { collectPages, streamPages, type Collected, type Page, type PagingOptions, type Streamed, type StreamOptions } from './paging'
export { cachedPageSizeMemory, createPageSizeMemory, startingPageSize, type PageSizeMemory } from './pageSize'
export { PROBE_ENDPOINTS, probeBroker, type ProbeConfig, type ProbeResult } from './probe'
export {
  ATTRIBUTE_NAME,
  ATTRIBUTE_NAME_RULE,
  ATTRIBUTE_PATH,
  attributeNameSchema,
  ENTITY_TYPE,
  ENTITY_TYPE_RULE,
  entityTypeSchema,
  HEX_COLOUR,
  HEX_COLOUR_RULE,
  hexColourSchema,
  TENANT_NAME,
  TENANT_NAME_RULE,
  tenantSchema,
} from './names'
export {
  attributePathSchema,
  buildQuery,
  comparisonOperators,
  comparisonOperatorNames,
  comparisonOperatorSymbols,
  queryNodeSchema,
  queryRowSchema,
  queryRowsSchema,
  rowsToQuery,
  type ComparisonOperator,
  type QueryNode,
  type QueryRow,
  type QueryScalar,
  type QueryValue,
} from './query'
export { flattenRecord, type Cell } from './table'
export {
  aggregationMethods,
  fetchTemporal,
  mergeSeries,
  normalizeTemporal,
  parseContentRange,
  remainingWindow,
  temporalParams,
  temporalQuerySchema,
  validateTemporalQuery,
  type TemporalEntity,
  type TemporalPoint,
  type TemporalQuery,
  type TemporalSeries,
} from './temporal'
export { unitSymbol } from './units'
export {
  deliveryFailing,
  subscriptionExpired,
  notificationSchema,
  NOTIFICATION_CLOCK_SKEW_MS,
  notifiedChanges,
  type NotificationExpectation,
  SubscriptionClient,
  subscriptionStatus,
  type NotificationBody,
  type NotifiedChanges,
  type SubscriptionClientOptions,
  type SubscriptionRequest,
  type SubscriptionStatus,
} from './subscriptions'
