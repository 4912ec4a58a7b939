import type { IncomingHttpHeaders } from 'node:http'

import type { Tenant } from './data'
import type { Paging } from './entity-query'
import type { FlavorProfile } from './flavors'

/** One NGSI-LD API request, already routed to a tenant. */
export interface ApiContext {
  /** Path below /ngsi-ld/v1, still percent-encoded so ids with '/' survive routing. */
  route: string
  params: URLSearchParams
  headers: IncomingHttpHeaders
  tenant: Tenant
  flavor: FlavorProfile
  nowMs: number
  temporalEnabled: boolean
  /** Whether aggregated temporal representations (options=aggregatedValues) are computed. */
  temporalAggregation: boolean
}

/** A body already written as JSON text (entity pages are rendered straight to text). */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface ApiResponse {
  status: number
  /** Serialized with JSON.stringify unless it is JsonText. */
  body: unknown
  /** application/json unless the representation asked for JSON-LD or GeoJSON. */
  contentType?: string
  headers?: Record<string, string>
  /** Link header values besides the @context one. */
  links?: string[]
}

/** Count header plus the flavor's next/prev links for one page of a list. */
export function pageMetadata(context: ApiContext, total: number, paging: Paging): Pick<ApiResponse, 'headers' | 'links'> {
  const headers: Record<string, string> = {}
  if (paging.count) headers['NGSILD-Results-Count'] = String(total)
  const links: string[] = []
  const { pageLinks } = context.flavor
  const pageUrl = (offset: number) => {
    const params = new URLSearchParams(context.params)
    params.set('limit', String(paging.limit))
    params.set('offset', String(offset))
    return `/ngsi-ld/v1${context.route}?${params}`
  }
  const suffix = pageLinks === 'next-prev-typed' ? '; type="application/ld+json"' : ''
  if (pageLinks !== 'none' && paging.limit > 0) {
    if (paging.offset + paging.limit < total) links.push(`<${pageUrl(paging.offset + paging.limit)}>; rel="next"${suffix}`)
    if (pageLinks === 'next-prev-typed' && paging.offset > 0) links.push(`<${pageUrl(Math.max(0, paging.offset - paging.limit))}>; rel="prev"${suffix}`)
  }
  return { headers, links }
}

/** Decodes a path segment that may be a percent-encoded URN or URL. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
