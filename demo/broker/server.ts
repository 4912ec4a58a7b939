// A demo NGSI-LD context broker over generated city data, for demo mode, tests and
// benchmarks: queries, entity updates, subscriptions with HTTP notifications, and a live mode
// that moves readings every few seconds. Plain node:http keeps it fast enough to page through
// 50,000 entities.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'

import { z } from 'zod'

import { JsonText, type ApiResponse } from './api-support'
import { generateTenants, type Tenant } from './data'
import { flavors, type Flavor } from './flavors'
import { startLiveUpdates } from './live'
import { handleNgsiLd } from './ngsi-api'
import { BrokerError, errorTypes } from './problems'
import { contextLink, requestContext } from './representation'
import { SubscriptionHub } from './subscriptions'
import { handleEntityWrite } from './write-api'

export const faultNames = ['slow', 'down', '5xx', 'garbage'] as const
export type Fault = (typeof faultNames)[number]

export interface DemoBrokerOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  host?: string
  flavor?: Flavor
  /** Entities per type per city; above 1000 the first city gets that many AirQualityObserved. */
  entities?: number
  seed?: number
  now?: () => Date
  fault?: Fault
  /** How long the 'slow' fault holds each response. */
  faultDelayMs?: number
  /** Serve the temporal API on Orion-LD too, as if Mintaka sat behind the same URL. */
  temporal?: boolean
  /** Stellio's per-attribute cap before it answers 206 (default 10,000). */
  temporalInstanceLimit?: number
  /** false: answer 501 to aggregated temporal queries, as a broker before NGSI-LD 1.4 does (default true). */
  temporalAggregation?: boolean
  /** Entity 3 of every type gets a name with markup in it (XSS tests). */
  hostileNames?: boolean
  /** Live mode: every this many ms, one entity per type and city gets new readings (and subscribers are notified). */
  liveIntervalMs?: number
}

export interface DemoBroker {
  url: string
  port: number
  flavor: Flavor
  tenants: string[]
  entityCount: number
  close(): Promise<void>
  setFault(fault: Fault | null, delayMs?: number): void
  /** Resolves once every notification sent so far has been answered or has failed. */
  notificationsSettled(): Promise<void>
}

export const DEFAULT_FAULT_DELAY_MS = 2000
const MIN_GZIP_BYTES = 1024
const MAX_CONTROL_BODY_BYTES = 4096
/** A batch upsert of 1,000 full entities is ~2 MB. */
const MAX_WRITE_BODY_BYTES = 16 * 1024 * 1024
const gzipAsync = promisify(gzip)

const faultControlBody = z
  .object({
    fault: z.enum(faultNames).nullable(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
  })
  .strict()

interface Reply {
  status: number
  body: string
  headers: Record<string, string | string[]>
}

export async function startDemoBroker(options: DemoBrokerOptions = {}): Promise<DemoBroker> {
  const flavorName = options.flavor ?? 'orion-ld'
  const baseFlavor = flavors[flavorName]
  const flavor =
    options.temporalInstanceLimit !== undefined && baseFlavor.temporalInstanceLimit !== undefined
      ? { ...baseFlavor, temporalInstanceLimit: options.temporalInstanceLimit }
      : baseFlavor
  const temporalEnabled = flavor.temporalOnSamePort || options.temporal === true
  const now = options.now ?? (() => new Date())
  const tenants = generateTenants({ seed: options.seed, entitiesPerType: options.entities, hostileNames: options.hostileNames })
  const startedAt = now()
  let fault: Fault | null = options.fault ?? null
  let faultDelayMs = options.faultDelayMs ?? DEFAULT_FAULT_DELAY_MS
  let garbageCount = 0

  const setFault = (next: Fault | null, delayMs?: number) => {
    fault = next
    if (delayMs !== undefined) faultDelayMs = delayMs
  }

  const hub = new SubscriptionHub(flavor, now)

  function route(method: string, path: string, query: string, request: IncomingMessage, body: unknown): ApiResponse {
    const info = flavor.infoEndpoints(startedAt, now())[path]
    if (info && (method === 'GET' || method === 'HEAD')) return { status: 200, body: info }
    if (!path.startsWith('/ngsi-ld/v1/')) {
      throw new BrokerError(404, errorTypes.resourceNotFound, 'Not Found', `No resource at ${path}`)
    }
    const context = {
      route: path.slice('/ngsi-ld/v1'.length),
      params: new URLSearchParams(query),
      headers: request.headers,
      tenant: resolveTenant(tenants, request.headers['ngsild-tenant'], flavor.unknownTenant),
      flavor,
      nowMs: now().getTime(),
      temporalEnabled,
      temporalAggregation: options.temporalAggregation ?? true,
    }
    if (context.route.startsWith('/subscriptions')) return hub.handle(context, method, body)
    if (method === 'GET' || method === 'HEAD') return handleNgsiLd(context)
    const written = handleEntityWrite(context, method, body, now().toISOString())
    if (written.changes.length > 0) hub.notify(context.tenant, written.changes, request.headers)
    return written.response
  }

  async function answer(request: IncomingMessage): Promise<Reply> {
    const url = request.url ?? '/'
    const queryStart = url.indexOf('?')
    const path = queryStart < 0 ? url : url.slice(0, queryStart)
    const method = request.method ?? 'GET'
    try {
      const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : await readJson(request)
      return toReply(route(method, path, queryStart < 0 ? '' : url.slice(queryStart + 1), request, body), requestContext(request.headers))
    } catch (error) {
      if (error instanceof BrokerError) return problemReply(error)
      return problemReply(new BrokerError(500, errorTypes.internalError, 'Internal Error', (error as Error).message))
    }
  }

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.url?.split('?')[0] === '/__demo/notifications') {
      await send(request, response, await controlNotifications(request, hub))
      return
    }
    if (request.url?.split('?')[0] === '/__demo/fault') {
      await send(request, response, await controlFault(request, setFault, () => ({ fault, delayMs: faultDelayMs })))
      return
    }
    switch (fault) {
      case 'down':
        // Like a crashed broker behind a load balancer: the connection just dies.
        request.socket.destroy()
        return
      case '5xx':
        await send(request, response, {
          ...problemReply(new BrokerError(503, errorTypes.internalError, 'Service Unavailable', 'The broker is temporarily unavailable (demo fault)')),
          headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
        })
        return
      case 'garbage':
        await send(request, response, garbageReply(await answer(request), garbageCount++))
        return
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, faultDelayMs).unref())
        break
    }
    await send(request, response, await answer(request))
  }

  const server = createServer({ keepAliveTimeout: 5000 }, (request, response) => {
    onRequest(request, response).catch(() => response.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port, address } = server.address() as AddressInfo
  const live = options.liveIntervalMs ? startLiveUpdates(tenants, options.liveIntervalMs, now, (tenant, changes) => hub.notify(tenant, changes, {})) : undefined
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    port,
    flavor: flavorName,
    tenants: tenants.map((tenant) => tenant.name),
    entityCount: tenants.reduce((sum, tenant) => sum + tenant.entities.length, 0),
    setFault,
    notificationsSettled: () => hub.settled(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        live?.stop()
        hub.close()
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

function resolveTenant(tenants: Tenant[], header: string | string[] | undefined, unknownTenant: (name: string) => BrokerError): Tenant {
  const name = (Array.isArray(header) ? header[0] : header)?.trim()
  if (!name) return tenants[0]
  const tenant = tenants.find((candidate) => candidate.name === name)
  if (!tenant) throw unknownTenant(name)
  return tenant
}

/** Serializes a handler's answer; plain JSON answers name the @context in a Link header, as brokers do. */
function toReply(response: ApiResponse, context: string): Reply {
  const contentType = response.contentType ?? 'application/json'
  const links = [...(response.links ?? [])]
  if (contentType === 'application/json' && response.status < 300) links.unshift(contextLink(context))
  return {
    status: response.status,
    // '' is no body at all (201 Created, 204 No Content).
    body: response.body instanceof JsonText ? response.body.text : response.body === '' ? '' : JSON.stringify(response.body),
    headers: { 'Content-Type': contentType, ...response.headers, ...(links.length && { Link: links }) },
  }
}

function problemReply(error: BrokerError): Reply {
  return { status: error.status, body: JSON.stringify(error.toProblem()), headers: { 'Content-Type': 'application/json' } }
}

/** Alternates between a proxy's HTML error page and JSON cut off mid-way, both with 200. */
function garbageReply(real: Reply, count: number): Reply {
  if (count % 2 === 0) {
    return {
      status: 200,
      body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
      headers: { 'Content-Type': 'text/html' },
    }
  }
  return { status: 200, body: real.body.slice(0, Math.max(1, Math.floor(real.body.length / 2))), headers: { 'Content-Type': 'application/json' } }
}

async function controlFault(
  request: IncomingMessage,
  setFault: (fault: Fault | null, delayMs?: number) => void,
  current: () => { fault: Fault | null; delayMs: number },
): Promise<Reply> {
  const json = (status: number, body: unknown): Reply => ({ status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })
  if (request.method === 'GET') return json(200, current())
  if (request.method !== 'POST') return json(405, { type: errorTypes.badRequestData, title: 'Method Not Allowed', detail: 'Use GET or POST' })
  let parsed
  try {
    parsed = faultControlBody.safeParse(JSON.parse(await readBody(request)))
  } catch {
    parsed = undefined
  }
  if (!parsed?.success) {
    return json(400, { type: errorTypes.badRequestData, title: 'Bad Request Data', detail: `Expected {"fault": ${faultNames.map((name) => `"${name}"`).join(' | ')} | null, "delayMs"?: number}` })
  }
  setFault(parsed.data.fault, parsed.data.delayMs)
  return json(200, current())
}

const notificationControlBody = z
  .object({ reachable: z.boolean().optional(), silent: z.boolean().optional() })
  .strict()
  .refine((body) => body.reachable !== undefined || body.silent !== undefined)

/**
 * GET or POST at /__demo/notifications: {"reachable": false} makes notifications fail as if the
 * dashboard could not be reached (the subscription reports the failures); {"silent": true} sends
 * none at all and reports nothing (only the data tells).
 */
async function controlNotifications(request: IncomingMessage, hub: SubscriptionHub): Promise<Reply> {
  const json = (status: number, body: unknown): Reply => ({ status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })
  const state = () => json(200, { reachable: hub.reachable, silent: hub.silent })
  if (request.method === 'GET') return state()
  if (request.method !== 'POST') return json(405, { type: errorTypes.badRequestData, title: 'Method Not Allowed', detail: 'Use GET or POST' })
  let parsed
  try {
    parsed = notificationControlBody.safeParse(JSON.parse(await readBody(request)))
  } catch {
    parsed = undefined
  }
  if (!parsed?.success) return json(400, { type: errorTypes.badRequestData, title: 'Bad Request Data', detail: 'Expected {"reachable"?: true | false, "silent"?: true | false}' })
  hub.reachable = parsed.data.reachable ?? hub.reachable
  hub.silent = parsed.data.silent ?? hub.silent
  return state()
}

async function readBody(request: IncomingMessage, maxBytes = MAX_CONTROL_BODY_BYTES): Promise<string> {
  let body = ''
  for await (const chunk of request) {
    body += chunk
    if (body.length > maxBytes) throw new BrokerError(413, errorTypes.badRequestData, 'Payload Too Large', `The body is larger than ${maxBytes} bytes`)
  }
  return body
}

/** The JSON body of a write (application/json or application/ld+json, as brokers accept). */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json' && type !== 'application/ld+json') {
    throw new BrokerError(415, errorTypes.badRequestData, 'Unsupported Media Type', `Content-Type must be application/json or application/ld+json, got '${type}'`)
  }
  const text = await readBody(request, MAX_WRITE_BODY_BYTES)
  try {
    return JSON.parse(text)
  } catch {
    throw new BrokerError(400, errorTypes.invalidRequest, 'Invalid JSON', 'The body is not valid JSON')
  }
}

async function send(request: IncomingMessage, response: ServerResponse, reply: Reply): Promise<void> {
  let payload: Buffer = Buffer.from(reply.body)
  const headers: Record<string, string | string[]> = { ...reply.headers }
  if (payload.length >= MIN_GZIP_BYTES && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    // Level 1: a 1000-entity page still shrinks ~10x, at a fraction of the default level's time.
    payload = await gzipAsync(payload, { level: 1 })
    headers['Content-Encoding'] = 'gzip'
    headers.Vary = 'Accept-Encoding'
  }
  headers['Content-Length'] = String(payload.length)
  if (response.destroyed) return
  response.writeHead(reply.status, headers)
  response.end(payload)
}
