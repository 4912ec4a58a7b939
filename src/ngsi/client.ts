// The NGSI-LD client the server uses: configuration, URLs, and the public operations wired
// to paging, normalisation, temporal and discovery. No Next or Payload imports: testable alone.

import { parseAttributeList, parseTypeInfo, parseTypeList, type TypeInfo } from './discovery'
import { NgsiError } from './errors'
import { entityQueryParams, type EntityQuery } from './filters'
import { bodyPieces, type BrokerResponse, encode, getBody, getJson, parseBody, parseLinkHeader, queryString, type CallOptions, type HttpConfig } from './http'
import { normalizeEntity, type NormalizedEntity } from './normalize'
import { createPageSizeMemory, startingPageSize, type PageSizeMemory } from './pageSize'
import { collectPages, streamPages, type Page, type PagingOptions } from './paging'
import { probeBroker, type ProbeResult } from './probe'
import { fetchTemporal, normalizeTemporal, temporalParams, validateTemporalQuery, type TemporalEntity, type TemporalQuery, type TemporalSeries } from './temporal'
import { type BrokerTransport, undiciTransport } from './transport'

export const DEFAULT_CONTEXT_URL = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'
/** The largest page any of Orion-LD, Scorpio and Stellio accepts. */
const BROKER_MAX_PAGE_SIZE = 1000

export interface NgsiClientOptions {
  /** Broker root, e.g. http://orion:1026 (a trailing /ngsi-ld/v1 is accepted too). */
  brokerUrl: string
  /** Temporal API root when it is a separate service (Mintaka next to Orion-LD). */
  temporalUrl?: string
  tenant?: string
  contextUrl?: string
  authToken?: string
  /**
   * Entities per request (default 100), clamped to 1..1000. A refused size drops to the maximum the
   * broker states (else halves), and the accepted size is remembered in `pageSizeMemory`.
   */
  maxPageSize?: number
  /** Page sizes learned per broker; give a shared one (cachedPageSizeMemory) to share them across clients and replicas. Default: this client's own. */
  pageSizeMemory?: PageSizeMemory
  /** Parallel page requests when paging by offset (default 4). */
  pageConcurrency?: number
  /** Most entities one query returns (default 50,000); beyond that the result is `truncated`. */
  maxEntities?: number
  timeoutMs?: number
  retries?: number
  /** Timeout of each probeVersion request (default 1500 ms). */
  probeTimeoutMs?: number
  /** How requests are sent (default: undici's request, see transport.ts); tests wrap it to watch the requests. */
  transport?: BrokerTransport
}

export interface QueryResult {
  entities: NormalizedEntity[]
  /** NGSILD-Results-Count, when the broker sent it. */
  total?: number
  truncated: boolean
}

export interface StreamResult {
  /** Entities handed to the callback. */
  count: number
  total?: number
  truncated: boolean
}

const API_PREFIX = '/ngsi-ld/v1'

/** Root (for health endpoints) and API base of a configured URL. */
function baseUrls(url: string, name: string): { root: string; api: string } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new NgsiError('bad-request', `${name} is not a valid URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new NgsiError('bad-request', `${name} must be an http(s) URL`)
  const trimmed = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '')
  const root = trimmed.endsWith(API_PREFIX) ? trimmed.slice(0, -API_PREFIX.length) : trimmed
  return { root, api: `${root}${API_PREFIX}` }
}

const clamp = (value: number | undefined, fallback: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.floor(Number.isFinite(value) ? (value as number) : fallback)))

function resultsCount(header: string | null): number | undefined {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined
}

function checkedId(id: string): string {
  if (typeof id !== 'string' || !/^\S{1,2048}$/.test(id)) throw new NgsiError('bad-request', 'An entity id must be a non-empty string without spaces')
  return id
}

/** What collectPages keeps (it de-duplicates by `id`). */
const hasStringId = (item: unknown) => typeof (item as { id?: unknown } | null)?.id === 'string'

/** The entities of a list answer, a batch at a time: an array body in pieces, a GeoJSON FeatureCollection whole. */
function listBatches(response: BrokerResponse): Iterable<unknown[]> {
  const pieces = bodyPieces(response)
  if (pieces) return pieces
  const features = (parseBody(response) as { features?: unknown } | null)?.features
  if (!Array.isArray(features)) throw new NgsiError('invalid-response', 'The broker answered an entity query with something other than a list')
  return [features]
}

/**
 * A list answer as a page: count and next link from the headers (the link must stay on the
 * broker's origin); the entities parsed from the body and normalised a batch at a time as they
 * are read.
 */
function toPage(response: BrokerResponse, normalize: (item: unknown) => unknown): Page {
  let read = false
  const page: Page = {
    *batches() {
      // Its bytes go back to the transport once read: a second reading would find another answer's.
      if (read) throw new Error('A page is read once')
      read = true
      try {
        // Items the pager will drop (no string id) are left as they are.
        for (const batch of listBatches(response)) yield batch.map((item) => (hasStringId(item) ? normalize(item) : item))
      } finally {
        response.release?.()
      }
    },
    total: resultsCount(response.headers.get('NGSILD-Results-Count')),
  }
  const link = parseLinkHeader(response.headers.get('Link')).find((candidate) => candidate.rel === 'next')
  if (link) {
    const next = new URL(link.url, response.url)
    // Never send the token elsewhere because a header said so.
    if (next.origin !== new URL(response.url).origin) {
      response.release?.()
      throw new NgsiError('invalid-response', 'The broker sent a next-page link to another host')
    }
    page.next = next.href
  }
  return page
}

type PageParams = Record<string, string | string[] | number | undefined>

export class NgsiClient {
  private readonly broker: { root: string; api: string }
  private readonly temporalApi: string
  private readonly http: HttpConfig
  private readonly authToken: string | undefined
  private readonly maxPageSize: number
  private readonly pageConcurrency: number
  private readonly maxEntities: number
  private readonly probeTimeoutMs: number
  private readonly pageSizes: PageSizeMemory

  constructor(options: NgsiClientOptions) {
    this.broker = baseUrls(options.brokerUrl, 'brokerUrl')
    this.temporalApi = options.temporalUrl ? baseUrls(options.temporalUrl, 'temporalUrl').api : this.broker.api
    this.http = {
      transport: options.transport ?? undiciTransport,
      contextUrl: options.contextUrl ?? DEFAULT_CONTEXT_URL,
      tenant: options.tenant,
      authToken: options.authToken,
      timeoutMs: clamp(options.timeoutMs, 10_000, 1, 600_000),
      retries: clamp(options.retries, 2, 0, 10),
    }
    this.authToken = options.authToken
    this.maxPageSize = clamp(options.maxPageSize, 100, 1, BROKER_MAX_PAGE_SIZE)
    this.pageConcurrency = clamp(options.pageConcurrency, 4, 1, 32)
    this.maxEntities = clamp(options.maxEntities, 50_000, 1, 10_000_000)
    this.probeTimeoutMs = clamp(options.probeTimeoutMs, 1500, 1, 60_000)
    this.pageSizes = options.pageSizeMemory ?? createPageSizeMemory()
  }

  async queryEntities(query: EntityQuery, opts: CallOptions = {}): Promise<QueryResult> {
    const collected = await this.readPages(this.broker.api, '/entities', entityQueryParams(query), normalizeEntity, query, opts, collectPages)
    return { entities: collected.items as NormalizedEntity[], total: collected.total, truncated: collected.truncated }
  }

  /**
   * The same result set page by page, normalised, in order, without holding it whole: `onEntities`
   * is awaited before further pages are handed on. Throws like queryEntities; pages already handed
   * on before a failure are the caller's to discard.
   */
  streamEntities(query: EntityQuery, onEntities: (entities: NormalizedEntity[]) => void | Promise<void>, opts: CallOptions = {}): Promise<StreamResult> {
    return this.readPages(this.broker.api, '/entities', entityQueryParams(query), normalizeEntity, query, opts, (paging) =>
      streamPages({ ...paging, onItems: (items) => onEntities(items as NormalizedEntity[]) }),
    )
  }

  async getEntity(id: string, opts: CallOptions = {}): Promise<NormalizedEntity> {
    const response = await this.get(`${this.broker.api}/entities/${encode(checkedId(id))}`, opts)
    return normalizeEntity(response.body)
  }

  async temporal(id: string, query: TemporalQuery, opts: CallOptions = {}): Promise<TemporalSeries> {
    const url = `${this.temporalApi}/temporal/entities/${encode(checkedId(id))}`
    return fetchTemporal((params) => this.get(url + queryString(params), opts), query, { id })
  }

  /**
   * The history of every entity an entity query selects (GET /temporal/entities), page by page like
   * streamEntities. A broker's 206 (a shortened window) is taken as it is: ask for aggregated values
   * or a shorter window when whole histories matter.
   */
  streamTemporal(
    entities: Pick<EntityQuery, 'type' | 'q' | 'limit'>,
    query: TemporalQuery,
    onEntities: (entities: TemporalEntity[]) => void | Promise<void>,
    opts: CallOptions = {},
  ): Promise<StreamResult> {
    const params = { ...entityQueryParams({ type: entities.type, q: entities.q }), ...temporalParams(validateTemporalQuery(query)) }
    const normalize = (item: unknown): TemporalEntity => ({ id: (item as { id: string }).id, series: normalizeTemporal(item) })
    // The temporal API learns its own page size: Mintaka's limits are not the broker's.
    return this.readPages(`${this.temporalApi}/temporal`, '/entities', params, normalize, entities, opts, (paging) =>
      streamPages({ ...paging, onItems: (items) => onEntities(items as TemporalEntity[]) }),
    )
  }

  async listTypes(opts: CallOptions = {}): Promise<string[]> {
    return parseTypeList((await this.get(`${this.broker.api}/types`, opts)).body)
  }

  async getType(type: string, opts: CallOptions = {}): Promise<TypeInfo> {
    if (typeof type !== 'string' || !/^\S{1,256}$/.test(type)) throw new NgsiError('bad-request', 'An entity type must be a non-empty string without spaces')
    return parseTypeInfo((await this.get(`${this.broker.api}/types/${encode(type)}`, opts)).body, type)
  }

  async listAttributes(opts: CallOptions = {}): Promise<string[]> {
    return parseAttributeList((await this.get(`${this.broker.api}/attributes`, opts)).body)
  }

  probeVersion(): Promise<ProbeResult> {
    return probeBroker({ transport: this.http.transport, rootUrl: this.broker.root, authToken: this.authToken, timeoutMs: this.probeTimeoutMs })
  }

  private get(url: string, opts: CallOptions = {}) {
    return getJson(this.http, url, opts)
  }

  /**
   * Reads every page of a query with `read`, starting at the page size this API accepts; a size
   * learned on the way is stored before the read settles, so the next load (here or on another
   * replica) starts there.
   */
  private async readPages<T>(
    api: string,
    path: string,
    params: PageParams,
    normalize: (item: unknown) => unknown,
    query: Pick<EntityQuery, 'limit'>,
    opts: CallOptions,
    read: (paging: PagingOptions) => Promise<T>,
  ): Promise<T> {
    const endpoint = api + path
    const remembering: Promise<void>[] = []
    const paging: PagingOptions = {
      pageUrl: (offset, limit, count) => endpoint + queryString({ ...params, limit, offset: offset || undefined, count: count ? 'true' : undefined }),
      // Each page is parsed and normalised at its turn, a batch at a time, while the broker prepares the next ones.
      load: async (url, signal) => toPage(await getBody(this.http, url, { ...opts, signal }), normalize),
      cap: Math.min(query.limit ?? Infinity, this.maxEntities),
      pageSize: await startingPageSize(this.pageSizes, api, this.maxPageSize),
      onPageSize: (size) => void remembering.push(this.pageSizes.set(api, size)),
      concurrency: this.pageConcurrency,
      signal: opts.signal,
    }
    try {
      return await read(paging)
    } finally {
      await Promise.allSettled(remembering)
    }
  }
}
