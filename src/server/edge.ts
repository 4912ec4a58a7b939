import 'server-only'

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import path from 'node:path'

import { reuseCompressedPages } from '@/server/compressedPages'
import { directRouteFor } from '@/server/directRoutes'
import { loadPrecompressedAssets, PRECOMPRESSED_DIR } from '@/server/precompressed'
import { PEER_ADDRESS_HEADER, REQUEST_ID_HEADER, runWithRequestContext } from '@/server/requestContext'
import { contentSecurityPolicy } from '@/server/securityHeaders'

import { HttpError } from './errors'
import { createImageGate } from './imageGate'
import { enforceRateLimit, type LimitPolicy } from './rateLimit'

export type EdgeSettings = { https: boolean; trustedProxyHops: number; requestTimeoutSeconds: number }

// Node's defaults (headers 60 s, whole request 300 s) let a client that trickles a body hold a connection for minutes.
const HEADERS_TIMEOUT_MS = 20_000

/** The deadlines a request must arrive within; set on a server's first connection after the hook is installed (after Next listens). */
function limitRequestTime(server: Server, settings: EdgeSettings) {
  if (server.requestTimeout === settings.requestTimeoutSeconds * 1000) return
  server.requestTimeout = settings.requestTimeoutSeconds * 1000
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, server.requestTimeout)
}

/**
 * A request target in absolute form (`GET http://evil.example/ HTTP/1.1`) is what clients send to
 * proxies, never to an origin server; Next answered it with a permanent redirect to the named host.
 */
const isOriginForm = (target: string | undefined) => target === undefined || target.startsWith('/')

/** `OPTIONS *` asks what the server as a whole supports (RFC 9110 §9.3.7); Next has no answer for it. */
const isServerWideOptions = (request: IncomingMessage) => request.method === 'OPTIONS' && request.url === '*'

// A request id a trusted proxy may pass on: short, printable, no separators that could forge log fields.
const FORWARDABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/
const HSTS = 'max-age=31536000; includeSubDomains'

/** Sent with every answer, whoever serves it (Next or a direct route). */
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self)',
}

/**
 * Next's image optimizer decodes and re-encodes an image for each width it has not kept yet
 * (~1.6 s of CPU for a 12 Mpx photo): a client may ask for this many per 10 s (a page of images
 * asks for one width of each), cache hits included.
 */
export const IMAGE_OPTIMIZER_LIMIT: LimitPolicy = { name: 'image-optimizer', perClient: 120, overall: 2_400, windowSeconds: 10 }

/** Optimized images made at once (one per core), and requests that may wait for a turn before 503. */
const imageGate = createImageGate({ concurrency: 2, maxWaiting: 200 })

/** Whether the optimized-image request may go on; a 429 `{error}` is answered when it may not. */
async function admitImageRequest(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<boolean> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value)
  try {
    await enforceRateLimit(new Request('http://edge/_next/image', { headers }), IMAGE_OPTIMIZER_LIMIT)
    return true
  } catch (error) {
    const refusal = error instanceof HttpError ? error : new HttpError(503, 'The image service is unavailable; try again later')
    response.writeHead(refusal.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...refusal.headers })
    response.end(JSON.stringify({ error: refusal.message, requestId }))
    return false
  }
}

let installed = false

/**
 * Runs for every request this process's HTTP servers receive, before Next.js sees it (no custom
 * server, no middleware that would buffer bodies):
 *
 * - stamps the socket's peer address (Next only fills X-Forwarded-For from the socket when the
 *   client sent none, so a client-sent value would stand in for the peer);
 * - gives the request an id (a client's is accepted only from a trusted proxy), answered in
 *   X-Request-Id and carried by every log line written while it is handled;
 * - adds the security headers, the Content-Security-Policy and, when the public URL is https, HSTS;
 * - answers `OPTIONS *`, refuses absolute-form request targets, and bounds how long a request may take to arrive;
 * - answers a static file the build compressed (src/server/precompressed.ts) and a loaded direct
 *   route (src/server/directRoutes.ts) itself, without Next's router;
 * - lets a cached page that Next gzipped once be sent gzipped as it is (src/server/compressedPages.ts);
 * - holds each client to IMAGE_OPTIMIZER_LIMIT optimized images per 10 s, and lets optimized
 *   images be made two at a time, each image and format once (src/server/imageGate.ts).
 */
export async function installEdge(settings: EdgeSettings) {
  if (installed) return
  installed = true
  const precompressed = await loadPrecompressedAssets(path.join(process.cwd(), PRECOMPRESSED_DIR))
  const http = await import('node:http')
  const emit = http.Server.prototype.emit
  http.Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') {
      if (event === 'connection') limitRequestTime(this, settings)
      return Reflect.apply(emit, this, [event, ...args]) as boolean
    }
    const [request, response] = args as [IncomingMessage, ServerResponse]
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? ''
    const offered = request.headers[REQUEST_ID_HEADER]
    const requestId = settings.trustedProxyHops > 0 && typeof offered === 'string' && FORWARDABLE_REQUEST_ID.test(offered) ? offered : randomUUID()
    request.headers[REQUEST_ID_HEADER] = requestId
    response.setHeader('X-Request-Id', requestId)
    const path = (request.url ?? '/').split('?')[0] as string
    response.setHeader('Content-Security-Policy', contentSecurityPolicy({ path, https: settings.https }))
    if (settings.https) response.setHeader('Strict-Transport-Security', HSTS)
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value)
    if (isServerWideOptions(request)) {
      response.writeHead(204, { Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS', 'Cache-Control': 'no-store' })
      response.end()
      return true
    }
    if (!isOriginForm(request.url)) {
      response.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Connection: 'close' })
      response.end(JSON.stringify({ error: 'The request target must be a path (origin form)', requestId }))
      return true
    }
    if (precompressed?.answer(request, response)) return true
    if (path === '/_next/image') {
      void admitImageRequest(request, response, requestId).then((admitted) => {
        if (!admitted) return
        const queued = imageGate(request, response, () => runWithRequestContext({ requestId }, () => Reflect.apply(emit, this, [event, ...args])))
        if (queued) return
        response.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Retry-After': '5' })
        response.end(JSON.stringify({ error: 'The image service is busy; try again shortly', requestId }))
      })
      return true
    }
    const direct = directRouteFor(request.method, request.url)
    const context = { requestId, target: request.url, contentType: request.headers['content-type'] }
    if (!direct) {
      reuseCompressedPages(request, response)
      return runWithRequestContext(context, () => Reflect.apply(emit, this, [event, ...args]) as boolean)
    }
    runWithRequestContext(context, () =>
      direct.handle(Object.assign(request, { query: direct.query }), response).catch((error: unknown) => {
        console.error(`[${requestId}] ${request.method} ${path} failed:`, error)
        if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
        response.end(response.headersSent ? undefined : JSON.stringify({ error: `Internal server error (reference ${requestId})`, requestId }))
      }),
    )
    return true
  } as typeof emit
}
