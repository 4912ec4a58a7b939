import 'server-only'

// What the layer routes (features, preview, tiles, history) share: the layer id, the query
// parameters they accept, who may read the layer, the city it is read for, ETag/Cache-Control/304
// and gzipped bodies.

import { createGunzip } from 'node:zlib'

import { z } from 'zod'

import { canReadLayer, layerReaderOf } from '@/access'
import { clientHasCurrent } from '@/server/conditional'
import { HttpError } from '@/server/errors'
import type { BufferReply } from '@/server/pagesRoute'
import type { MapLayer } from '@/payload-types'
import { payloadClient, signedInUser } from '@/site/payload'

import { storedLayer } from './records'
import { routeTenant } from './tenant'

const layerId = z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'layer id: a number or an object id')

/** The search parameters, each at most once, none unknown, validated by `schema`. */
export function parseSearch<Schema extends z.ZodType>(url: URL, schema: Schema, allowed: string[]): z.output<Schema> {
  const unknown = [...url.searchParams.keys()].filter((name) => !allowed.includes(name))
  if (unknown.length > 0) {
    throw new HttpError(400, `Unsupported parameter ${unknown.map((name) => `"${name.slice(0, 40)}"`).join(', ')}; use ${allowed.join(', ')}`)
  }
  for (const name of allowed) {
    if (url.searchParams.getAll(name).length > 1) throw new HttpError(400, `Give "${name}" once`)
  }
  return schema.parse(Object.fromEntries(url.searchParams))
}

/**
 * The layer the caller asked for, if they may read it (404 otherwise, as if it did not exist), and
 * the tenant to read it for (the tenant rule: ./tenant.ts).
 */
export async function readableLayer(request: Request, rawId: string, city: string | undefined): Promise<{ layer: MapLayer; tenant?: string }> {
  const id = layerId.parse(rawId)
  const layer = await storedLayer(await payloadClient(), id)
  // Everyone may read a public layer: no need to authenticate (the largest cost of a cached answer).
  const reader = layer && !layer.public ? layerReaderOf(await signedInUser(request.headers)) : 'public'
  if (!layer || !canReadLayer(layer, reader)) throw new HttpError(404, 'No such map layer')
  return { layer, tenant: await routeTenant(layer, city) }
}

/** ETag, caching and data-state headers of a layer answer; `notModified` when the client's copy is current. */
export function cachedAnswer(request: Request, layer: MapLayer, etag: string, state: string): { headers: Record<string, string>; notModified: boolean } {
  const headers: Record<string, string> = {
    ETag: etag,
    // no-transform: the body is gzipped once, from the cache; nothing on the way should redo it.
    'Cache-Control': layer.public
      ? `public, max-age=${Math.min(layer.refreshSeconds, 60)}, stale-while-revalidate=${layer.refreshSeconds}, no-transform`
      : 'private, no-cache, no-transform',
    Vary: 'Accept-Encoding, Cookie, Authorization',
    'X-Data-State': state,
  }
  return { headers, notModified: clientHasCurrent(request.headers.get('if-none-match'), etag) }
}

/** Gzipped bytes as they are to a client that accepts gzip, else unpacked as they are sent (unpacking a large layer once per client that cannot take gzip is the rarer cost). */
export function gzipReply(request: Request, headers: Record<string, string>, gzipped: Buffer): BufferReply & { status: 200 } {
  if (/\bgzip\b/i.test(request.headers.get('accept-encoding') ?? '')) {
    return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: gzipped }
  }
  const gunzip = createGunzip()
  gunzip.end(gzipped)
  return { status: 200, headers, body: gunzip }
}
