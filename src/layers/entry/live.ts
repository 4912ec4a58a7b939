import 'server-only'

// The two live routes: POST /api/ngsi-ld/notify/{token} (a broker's notification) and
// GET /api/live (a page's event stream of its layers' changes). How live updates work as a
// whole: docs/live-updates.md.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'

import { z } from 'zod'

import { canReadLayer, layerReaderOf } from '@/access'
import { env } from '@/env'
import { channelOf, type BusMessage } from '@/layers/server/live'
import { changeOf, type LiveEvent, type LiveMode, type LiveModeChange, type LiveReset, modeChangeOf, readyOf, tilesChangeOf } from '@/layers/shared/liveEvents'
import type { LiveLayers } from '@/layers/server/liveLayers'
import { liveTargets, type LiveTarget } from '@/layers/server/liveSubscriptions'
import { notificationSchema } from '@/ngsi'
import type { MapLayer } from '@/payload-types'
import { readJsonBody } from '@/server/body'
import { type PagesHandler, servedDirectly } from '@/server/directRoutes'
import { errorResponse, HttpError } from '@/server/errors'
import { toRequest } from '@/server/pagesRoute'
import { callerOf } from '@/server/rateLimit'
import { payloadClient, signedInUser } from '@/site/payload'

import { parseSearch, readableLayer } from './reply'
import { liveLayers } from './services'
import { citiesNow, citySchema } from './tenant'
import { tenantsOf } from '@/site/cities'
import { toLayerSpec } from '../server/spec'

/** The process's live layers, reading layers through this server's Payload. */
export function live(): LiveLayers {
  const service = liveLayers(payloadClient)
  void startLive()
  return service
}

/** A notification holds every entity one request changed: a 1,000-entity batch upsert is a few MB. */
export const MAX_NOTIFICATION_BYTES = 16 * 1024 * 1024

const notFound = () => new HttpError(404, 'Not found')

/**
 * POST /api/ngsi-ld/notify/{token}: answered 200 with a small JSON body before the changes are
 * applied. Any token but a live subscription's is a 404, whatever the body.
 */
async function notifyReply(request: Request, token: string): Promise<Response> {
  const record = await live().subscriptions.byToken(token)
  if (!record) throw notFound()
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json' && type !== 'application/ld+json') throw new HttpError(415, 'A notification must be application/json or application/ld+json')
  const body = notificationSchema.parse(await readJsonBody(request, MAX_NOTIFICATION_BYTES))
  if (body.subscriptionId !== record.subscriptionId) throw notFound()
  const accepted = live().accept(record, body)
  return Response.json({ accepted }, { headers: { 'Cache-Control': 'no-store' } })
}

/**
 * The notify route on Node's response, so the answer has a Content-Length: Orion-LD counts a
 * chunked answer as a failed notification (and pauses after 3), and an App Router handler's
 * Content-Length does not survive `next start`. Served by src/pages/api/ngsi-ld/notify/[token].ts,
 * without Next's router once loaded.
 */
export const notifyRoute: PagesHandler = servedDirectly(
  '/api/ngsi-ld/notify/[token]',
  async function notifyRoute(req, res) {
    // Next and the edge hand over Node's request itself (the body unread: bodyParser is off).
    const incoming = req as unknown as IncomingMessage
    const headers = new Headers()
    for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
    const isPost = incoming.method === 'POST'
    const request = new Request(new URL(incoming.url ?? '/', 'http://localhost'), {
      method: incoming.method,
      headers,
      ...(isPost && { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' }),
    } as RequestInit)
    let response: Response
    try {
      if (!isPost) throw new HttpError(405, 'Notifications are POSTed', { Allow: 'POST' })
      response = await notifyReply(request, String(req.query.token ?? ''))
    } catch (error) {
      // The token is the notification's secret: the refusal is logged under the route's pattern, never its path.
      response = errorResponse(error, { method: incoming.method, url: '/api/ngsi-ld/notify/[token]', headers })
    }
    const body = Buffer.from(await response.arrayBuffer())
    const answerHeaders: Record<string, string> = Object.fromEntries(response.headers)
    // res.end(bytes) alone would set it too; said outright because brokers depend on it.
    answerHeaders['content-length'] = String(body.byteLength)
    res.writeHead(response.status, answerHeaders)
    res.end(body)
  },
  ['POST'],
)

// ---------------------------------------------------------------------------------------------
// The stream

const MAX_LAYERS_PER_STREAM = 20
const HEARTBEAT_MS = 15_000
/** A members-only layer's subscription outlives its last watcher by this much. */
const WATCH_MS = 10 * 60_000
/** A client that has not taken what it was sent for this long is dropped (checked at each event and heartbeat). */
const MAX_BEHIND_MS = 30_000

const liveSearch = z.strictObject({
  layers: z
    .string()
    .max(400)
    .transform((text) => [...new Set(text.split(','))])
    .pipe(z.array(z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'layers: layer ids, comma-separated')).min(1).max(MAX_LAYERS_PER_STREAM)),
  city: citySchema.optional(),
})

/**
 * Streams open now: per client address and in the process. On globalThis: the stream (a Pages
 * route) and /api/health (an app route) are bundled apart, and health counted 0 while hundreds were open.
 */
const OPEN_STREAMS = Symbol.for('citydash.openStreams')
const open = ((globalThis as { [OPEN_STREAMS]?: { total: number; byClient: Map<string, number> } })[OPEN_STREAMS] ??= { total: 0, byClient: new Map() })

/** `Last-Event-ID` as this stream writes it: `layer.version` pairs joined by `_`. */
function parseLastEventId(header: string | string[] | undefined): Map<string, number> | undefined {
  const text = Array.isArray(header) ? header[0] : header
  if (!text || !/^[\w-]{1,64}\.\d{1,15}(_[\w-]{1,64}\.\d{1,15}){0,19}$/.test(text)) return undefined
  return new Map(text.split('_').map((pair) => [pair.split('.')[0]!, Number(pair.split('.')[1])]))
}

const eventId = (versions: Map<string, number>) => [...versions].map(([layer, version]) => `${layer}.${version}`).join('_')

/**
 * An event's `data:` bytes, made once however many streams send them: a 100-entity change is
 * ~20 kB, and 10,000 streams each serialising (and holding) their own copy took the process down.
 */
const encoded = new WeakMap<LiveEvent, { change: Buffer; tiles: Buffer }>()
function eventBytes(event: LiveEvent, kind: 'change' | 'tiles'): Buffer {
  let known = encoded.get(event)
  if (!known) {
    known = {
      change: Buffer.from(`event: change\ndata: ${JSON.stringify(changeOf(event))}\n\n`),
      tiles: Buffer.from(`event: tiles\ndata: ${JSON.stringify(tilesChangeOf(event))}\n\n`),
    }
    encoded.set(event, known)
  }
  return known[kind]
}

function refuse(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers })
  res.end(JSON.stringify({ error }))
}

/** Refuses a stream past the per-client or the process's cap (429, 503); whether it did. */
function overStreamCap(res: ServerResponse, caller: string): boolean {
  const settings = env()
  if ((open.byClient.get(caller) ?? 0) >= settings.LIVE_MAX_STREAMS_PER_CLIENT) {
    refuse(res, 429, 'Too many live streams from this address', { 'Retry-After': '30' })
    return true
  }
  if (open.total >= settings.LIVE_MAX_STREAMS) {
    refuse(res, 503, 'The server holds as many live streams as it can; the page polls instead', { 'Retry-After': '60' })
    return true
  }
  return false
}

type StreamLayer = { layer: MapLayer; tenant: string }

/** The stream's layers, each readable by the caller in its city; undefined when the answer (an error) was sent. */
async function streamLayers(request: Request, res: ServerResponse): Promise<StreamLayer[] | undefined> {
  try {
    const search = parseSearch(new URL(request.url), liveSearch, ['layers', 'city'])
    return await Promise.all(
      search.layers.map(async (id) => {
        const { layer, tenant } = await readableLayer(request, id, search.city)
        return { layer, tenant: tenant ?? '' }
      }),
    )
  } catch (error) {
    const answer = errorResponse(error, request)
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
    return undefined
  }
}

/**
 * One open event stream: counted in (and out when it ends), its layers' versions, and what it
 * writes. Each change is written as what the stream lacks since its version, one event per layer
 * (shared by every stream as far behind; the hub may hand over a burst at once). Backpressure:
 * while the client has not taken what it was sent ('drain' not yet come), changes wait and go as
 * one: a slow reader gets fewer, merged events, never a growing queue of them.
 */
class EventStream {
  closed = false
  readonly versions = new Map<string, number>()
  private readonly stops: (() => void)[] = []
  private behindSince: number | undefined
  private readonly held = new Set<string>()
  private readonly layerOf: Map<string, string>

  constructor(
    private readonly res: ServerResponse,
    private readonly caller: string,
    private readonly hub: LiveLayers['hub'],
    readonly channels: string[],
    layerIds: string[],
  ) {
    this.layerOf = new Map(channels.map((channel, index) => [channel, layerIds[index]!]))
  }

  /** Counted in, and listened for before any further await, so a client closing meanwhile is still counted out. */
  open() {
    open.total++
    open.byClient.set(this.caller, (open.byClient.get(this.caller) ?? 0) + 1)
    this.res.on('close', this.end)
    this.res.on('error', this.end)
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: nothing on the way may compress (and so hold back) the events.
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    })
    this.res.flushHeaders()
    this.stops.push(this.hub.listen(this.channels, this.onMessage))
    this.res.on('drain', () => {
      this.behindSince = undefined
      for (const channel of this.held) {
        this.held.delete(channel)
        this.catchUp(channel, this.layerOf.get(channel)!)
      }
    })
  }

  /** Runs `stop` when the stream ends. */
  onEnd(stop: () => void) {
    this.stops.push(stop)
  }

  end = () => {
    if (this.closed) return
    this.closed = true
    for (const stop of this.stops) stop()
    open.total--
    const left = (open.byClient.get(this.caller) ?? 1) - 1
    if (left > 0) open.byClient.set(this.caller, left)
    else open.byClient.delete(this.caller)
    this.res.end()
  }

  write(text: string | Buffer) {
    if (this.closed) return
    if (!this.res.write(text)) this.behindSince ??= Date.now()
  }

  /** A client that has not taken what it was sent for MAX_BEHIND_MS. */
  stalled = () => this.behindSince !== undefined && Date.now() - this.behindSince > MAX_BEHIND_MS

  /** Bytes still on their way to the client. */
  behind = () => this.behindSince !== undefined

  send(event: string, data: unknown, withId = false) {
    this.write(`${withId ? `id: ${eventId(this.versions)}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  writeChange(layerId: string, event: LiveEvent) {
    this.versions.set(layerId, event.version)
    this.write(`id: ${eventId(this.versions)}\n`)
    this.write(eventBytes(event, event.tiles ? 'tiles' : 'change'))
  }

  private catchUp(channel: string, layerId: string) {
    const catchup = this.hub.catchUp(channel, this.versions.get(layerId) ?? 0)
    if (catchup.kind === 'change') this.writeChange(layerId, catchup.event)
    else if (catchup.kind === 'reset') {
      this.versions.set(layerId, catchup.version)
      this.send('reset', { layers: [layerId] } satisfies LiveReset, true)
    }
  }

  private onMessage = (message: BusMessage) => {
    const channel = channelOf(message.event.layerId, message.event.tenant)
    const layerId = this.layerOf.get(channel)
    if (!layerId) return
    if (message.kind === 'mode') return this.send('mode', modeChangeOf(layerId, message.event))
    if (message.event.version <= (this.versions.get(layerId) ?? 0)) return
    if (this.behindSince === undefined) return this.catchUp(channel, layerId)
    // A client that does not read is dropped, not waited for without end.
    if (this.stalled()) return this.end()
    this.held.add(channel)
  }
}

/** After a reconnect, the events missed if the hub still holds them all, else a reset; then `ready` (versions and modes). */
async function greet(stream: EventStream, layers: StreamLayer[], lastEventId: string | string[] | undefined, service: LiveLayers) {
  stream.write('retry: 3000\n\n')
  const resumeFrom = parseLastEventId(lastEventId)
  const missed: LiveEvent[] = []
  const reset: string[] = []
  if (resumeFrom) {
    for (const [index, { layer }] of layers.entries()) {
      const from = resumeFrom.get(String(layer.id))
      if (from === undefined) continue
      const events = service.hub.since(stream.channels[index]!, from)
      if (events) missed.push(...events)
      else reset.push(String(layer.id))
    }
  }
  const modes = Object.fromEntries(await Promise.all(layers.map(async ({ layer, tenant }) => [String(layer.id), await service.modeOf(layer.id, tenant)] as const)))
  if (stream.closed) return undefined
  stream.send('ready', readyOf(stream.versions, modes), true)
  if (reset.length > 0) stream.send('reset', { layers: reset } satisfies LiveReset)
  for (const event of missed) {
    if (!reset.includes(String(event.layerId))) stream.write(eventBytes(event, event.tiles ? 'tiles' : 'change'))
  }
  return modes
}

/**
 * While the stream is open: its layers watched (which makes the subscriptions of layers no one
 * watched yet, members-only ones kept while watched; a broker that refuses leaves the layer
 * polling, which `ready` said), a heartbeat, and a members-only stream's session checked.
 */
function keepOpen(stream: EventStream, layers: StreamLayer[], modes: Record<string, LiveMode>, request: Request, service: LiveLayers) {
  const watch = () => {
    for (const { layer, tenant } of layers) {
      const watchedUntil = layer.public ? undefined : Date.now() + WATCH_MS
      void service.watch({ layer: toLayerSpec(layer), tenant, watchedUntil }).then((record) => {
        const id = String(layer.id)
        if (record && !modes[id]?.brokerDownSince && modes[id]?.mode !== record.mode) {
          modes[id] = { mode: record.mode }
          stream.send('mode', { layer: id, mode: record.mode } satisfies LiveModeChange)
        }
      })
    }
  }
  watch()
  const rewatch = setInterval(watch, WATCH_MS / 2)
  const heartbeat = setInterval(() => {
    if (stream.stalled()) stream.end()
    // Bytes still on their way keep the connection busy enough: no heartbeat behind them.
    else if (!stream.behind()) stream.send('heartbeat', { at: new Date().toISOString() })
  }, HEARTBEAT_MS)
  const membersOnly = layers.some(({ layer }) => !layer.public)
  const sessionCheck = membersOnly
    ? setInterval(() => void stillMember(request.headers).then((member) => member || stream.end()), env().LIVE_SESSION_CHECK_SECONDS * 1000)
    : undefined
  stream.onEnd(() => {
    clearInterval(rewatch)
    clearInterval(heartbeat)
    clearInterval(sessionCheck)
  })
}

/**
 * GET /api/live?layers=1,2[&city=tenant] → text/event-stream: `ready` (each layer's version and
 * whether it is live or polling), then `change` (upserted features, removed ids, version),
 * `tiles` (a tiled layer's new version), `mode` (live ↔ polling), `reset` (resume impossible:
 * refetch) and `heartbeat`. Same access and tenant rule as the features route.
 * Served by src/pages/api/live.ts, without Next's router once loaded.
 */
export const liveStream: PagesHandler = servedDirectly('/api/live', async function liveStream(req, res) {
  const request = toRequest(req)
  if (req.method !== 'GET') return refuse(res, 405, 'Method not allowed', { Allow: 'GET' })
  const caller = callerOf(request.headers)
  // Checked here to refuse before any work, and again where a stream is counted (requests in flight together all pass this one).
  if (overStreamCap(res, caller)) return
  const layers = await streamLayers(request, res)
  if (!layers) return
  if (!env().LIVE_UPDATES) return refuse(res, 503, 'Live updates are turned off on this server; the page polls instead')

  const service = live()
  await service.hub.start()
  const channels = layers.map(({ layer, tenant }) => channelOf(layer.id, tenant))
  const stream = new EventStream(res, caller, service.hub, channels, layers.map(({ layer }) => String(layer.id)))
  for (const [index, { layer }] of layers.entries()) stream.versions.set(String(layer.id), await service.hub.version(channels[index]!))
  // A client gone during the awaits above never gets a 'close' to count it out: not counted in.
  if (res.destroyed || res.socket?.destroyed) return
  // No await from this check to the count: the caps hold for requests that arrived together.
  if (overStreamCap(res, caller)) return
  stream.open()
  const modes = await greet(stream, layers, req.headers['last-event-id'], service)
  if (modes) keepOpen(stream, layers, modes, request, service)
})

/** Whether the stream's session still belongs to a member (signed out or demoted: it does not). */
async function stillMember(headers: Headers): Promise<boolean> {
  try {
    const user = await signedInUser(headers)
    return canReadLayer({ public: false }, layerReaderOf(user))
  } catch {
    return false
  }
}

/** Open streams of this process (the health report, benchmarks). */
export const openStreams = () => open.total

// ---------------------------------------------------------------------------------------------
// Which subscriptions exist

async function targetsOf(layer: MapLayer): Promise<LiveTarget[]> {
  return liveTargets(toLayerSpec(layer), layer.source?.tenant, tenantsOf(await citiesNow()), env().NGSI_LD_TENANT)
}

/** Every public layer in every city: what the server keeps subscribed whether or not anyone watches. */
async function publicTargets(): Promise<LiveTarget[]> {
  const payload = await payloadClient()
  const { docs } = await payload.find({ collection: 'map-layers', where: { public: { equals: true } }, depth: 0, limit: 1000, pagination: false, overrideAccess: true })
  return (await Promise.all(docs.map(targetsOf))).flat()
}

/**
 * Subscriptions made for every public layer and city, and every other one carrying our name
 * deleted (a crash or a deleted layer may have left some): run at start, then renewed and
 * checked every LIVE_CHECK_SECONDS by one replica at a time.
 */
export async function reconcileLive(): Promise<{ created: number; deleted: number }> {
  const targets = await publicTargets()
  const tenants = [...new Set([...tenantsOf(await citiesNow()), env().NGSI_LD_TENANT ?? ''])]
  return live().subscriptions.reconcile(targets, tenants)
}

const STARTED = Symbol.for('citydash.liveStarted')
const processWide = globalThis as { [STARTED]?: Promise<void> }

/** Reconciles once per process (and again when the registry is lost), then keeps the subscriptions renewed; a failure is retried on the next call. */
export function startLive(): Promise<void> {
  const settings = env()
  if (!settings.LIVE_UPDATES) return Promise.resolve()
  return (processWide[STARTED] ??= reconcileLive().then(
    () => {
      live().startMaintenance(settings.LIVE_CHECK_SECONDS * 1000, reconcileLive)
      live().startProbe(settings.LIVE_PROBE_SECONDS * 1000)
    },
    (error: unknown) => {
      // Tried again after a while, not on every request while the broker is down.
      setTimeout(() => (processWide[STARTED] = undefined), 30_000).unref()
      console.warn(`live: subscriptions could not be reconciled (${error instanceof Error ? error.message : String(error)}); layers poll until the next try`)
    },
  ))
}

interface LiveHealth {
  layers: number
  subscribed: number
  polling: number
  streams: number
  /** Subscriptions the broker held when last asked: after a check, what it holds of ours. */
  atBroker: number
  /** Since when the broker has not answered the live probe (every layer polls meanwhile). */
  brokerDownSince?: string
  /** For members only: which (layer, city) pairs poll and why (the reasons may name broker entities or errors). */
  pollingLayers?: { layer: string; city: string; reason?: string }[]
}

/** `live` in /api/health: how many (layer, city) pairs are subscribed, and how many poll (and why, for members). */
export async function liveHealth({ withReasons }: { withReasons: boolean }): Promise<LiveHealth | undefined> {
  if (!env().LIVE_UPDATES) return undefined
  const { layers, subscribed, polling, atBroker, brokerDownSince, details } = await live().status()
  const pollingLayers = details.filter((detail) => detail.mode === 'polling').map(({ layerId, tenant, reason }) => ({ layer: layerId, city: tenant, ...(reason && { reason }) }))
  return { layers, subscribed, polling, atBroker, streams: openStreams(), ...(brokerDownSince && { brokerDownSince }), ...(withReasons && { pollingLayers }) }
}
