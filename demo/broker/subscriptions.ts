// NGSI-LD subscriptions (ETSI GS CIM 009 5.8) and HTTP notifications, the way each flavor
// behaves (shared/ngsi-ld/SUBSCRIPTIONS.md §2): ids, notifiedAt precision, the URL called,
// headers, grouping, what counts as delivered, throttling, expiry, status counters.

import type { IncomingHttpHeaders } from 'node:http'

import { decodeSegment, pageMetadata, type ApiContext, type ApiResponse } from './api-support'
import { EntityView, type Tenant } from './data'
import { parsePaging, resolveType } from './entity-query'
import { notificationTriggers, type FlavorProfile, type NotificationProfile } from './flavors'
import { BrokerError, badRequest, errorTypes, notFound } from './problems'
import { evaluateQuery, parseQuery, QuerySyntaxError, type QueryNode } from './query-language'
import { CORE_CONTEXT, contextLink, renderEntity, type AttributeForm, type MediaType } from './representation'
import { compileSafeRegex } from './safe-regex'
import type { EntityChange } from './updates'

interface EntitySelector {
  type: string
  id?: string
  idPattern?: string
}

interface Endpoint {
  uri: string
  accept: MediaType
  receiverInfo?: { key: string; value: string }[]
  timeout?: number
}

/** What a client set, as stored (and echoed on GET). */
interface SubscriptionBody {
  id: string
  type: 'Subscription'
  subscriptionName?: string
  description?: string
  entities?: EntitySelector[]
  watchedAttributes?: string[]
  q?: string
  geoQ?: unknown
  notification: { attributes?: string[]; format: AttributeForm; sysAttrs?: boolean; endpoint: Endpoint }
  expiresAt?: string
  throttling?: number
  isActive: boolean
  notificationTrigger?: string[]
}

interface Subscription {
  body: SubscriptionBody
  tenant: Tenant
  /** The NGSILD-Tenant header it was created with (Scorpio sends it back on notifications). */
  tenantHeader?: string
  context: string
  query?: QueryNode
  idPatterns: (RegExp | undefined)[]
  timesSent: number
  timesFailed: number
  consecutiveErrors: number
  lastNotification?: string
  lastSuccess?: string
  lastFailure?: string
  lastErrorReason?: string
  lastStatus?: 'ok' | 'failed'
  lastNotifiedMs?: number
}

/** The broker-wide subscription store and notifier. */
export class SubscriptionHub {
  private readonly subscriptions = new Map<string, Subscription>()
  private readonly inFlight = new Set<Promise<void>>()
  private readonly controller = new AbortController()
  /** false: notifications fail as if the endpoint were unreachable (a network between broker and dashboard that is down). */
  reachable = true
  /** true: changes trigger no notification at all and the status shows no failure (a notifier that silently stopped). */
  silent = false

  constructor(
    private readonly flavor: FlavorProfile,
    private readonly now: () => Date,
  ) {}

  private get profile(): NotificationProfile {
    return this.flavor.notifications
  }

  handle(context: ApiContext, method: string, body: unknown): ApiResponse {
    const [, , ...rest] = context.route.split('/')
    const id = rest.length ? decodeSegment(rest.join('/')) : ''
    if (!id) {
      if (method === 'POST') return this.create(context, body)
      if (method === 'GET' || method === 'HEAD') return this.list(context)
    } else {
      if (method === 'GET' || method === 'HEAD') return { status: 200, body: this.render(this.find(context.tenant, id)) }
      if (method === 'PATCH') return this.update(this.find(context.tenant, id), body)
      if (method === 'DELETE') {
        this.find(context.tenant, id)
        this.subscriptions.delete(id)
        return { status: 204, body: '' }
      }
    }
    throw new BrokerError(405, errorTypes.badRequestData, 'Method Not Allowed', `${method} is not allowed on ${context.route}`)
  }

  private find(tenant: Tenant, id: string): Subscription {
    const subscription = this.subscriptions.get(id)
    if (!subscription || subscription.tenant !== tenant) throw notFound(id, 'Subscription Not Found')
    return subscription
  }

  private create(context: ApiContext, raw: unknown): ApiResponse {
    if (!isObject(raw)) throw badRequest('A subscription must be a JSON object')
    const id = raw.id === undefined ? this.profile.subscriptionId() : raw.id
    if (typeof id !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(id)) throw badRequest("Subscription 'id' must be a URI")
    if (this.subscriptions.has(id)) throw new BrokerError(409, `${errorTypes.badRequestData.replace('BadRequestData', 'AlreadyExists')}`, 'Already Exists', id)
    const body = this.validate({ ...raw, id }, true)
    const context_ = typeof raw['@context'] === 'string' ? raw['@context'] : headerContext(context.headers)
    const tenantHeader = headerValue(context.headers['ngsild-tenant'])
    this.subscriptions.set(id, { ...this.compile(body), body, tenant: context.tenant, tenantHeader, context: context_, timesSent: 0, timesFailed: 0, consecutiveErrors: 0 })
    return { status: 201, body: '', headers: { Location: `/ngsi-ld/v1/subscriptions/${encodeURIComponent(id)}` } }
  }

  private update(subscription: Subscription, raw: unknown): ApiResponse {
    if (!isObject(raw)) throw badRequest('A subscription fragment must be a JSON object')
    const { '@context': _context, id: _id, type: _type, ...fragment } = raw
    const current = subscription.body as unknown as Record<string, unknown>
    const merged: Record<string, unknown> = { ...current, ...fragment }
    if (isObject(fragment.notification) && !this.profile.patchReplacesNotification) {
      merged.notification = { ...subscription.body.notification, ...fragment.notification }
    }
    const body = this.validate(merged, 'expiresAt' in fragment)
    Object.assign(subscription, this.compile(body), { body })
    return { status: 204, body: '' }
  }

  private compile(body: SubscriptionBody): Pick<Subscription, 'query' | 'idPatterns'> {
    let query: QueryNode | undefined
    try {
      query = body.q === undefined ? undefined : parseQuery(body.q)
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw badRequest(`Invalid q: ${error.message}`)
      throw error
    }
    const idPatterns = (body.entities ?? []).map((selector) => {
      if (selector.idPattern === undefined) return undefined
      try {
        return compileSafeRegex(selector.idPattern)
      } catch (error) {
        throw badRequest(`Invalid idPattern: ${(error as Error).message}`)
      }
    })
    return { query, idPatterns }
  }

  /** Checks a whole subscription as the flavor does; `newExpiry`: a past expiresAt given now may be refused. */
  private validate(raw: Record<string, unknown>, newExpiry: boolean): SubscriptionBody {
    const profile = this.profile
    for (const [member, [status, reason]] of Object.entries(profile.refusedMembers)) {
      if (member in raw) throw new BrokerError(status, status === 501 ? errorTypes.operationNotSupported : errorTypes.badRequestData, reason, member)
    }
    const known = new Set(['@context', 'id', 'type', 'subscriptionName', 'description', 'entities', 'watchedAttributes', 'q', 'geoQ', 'notification', 'expiresAt', 'throttling', 'isActive', 'notificationTrigger', 'jsonldContext', 'lang', 'scopeQ', 'status', 'timeInterval'])
    const unknown = Object.keys(raw).find((member) => !known.has(member))
    if (unknown && profile.unknownMembers === 'refuse') throw badRequest(`Member '${unknown}' is invalid`)
    if (raw.type !== 'Subscription') throw badRequest("'type' must be 'Subscription'")
    const entities = optionalArray(raw.entities, 'entities')?.map((item, index) => {
      if (!isObject(item) || typeof item.type !== 'string') throw badRequest(`entities[${index}] needs a 'type'`)
      return { type: item.type, ...(typeof item.id === 'string' && { id: item.id }), ...(typeof item.idPattern === 'string' && { idPattern: item.idPattern }) }
    })
    const watchedAttributes = optionalArray(raw.watchedAttributes, 'watchedAttributes')?.map((name) => requireString(name, 'watchedAttributes'))
    if (!entities?.length && !watchedAttributes?.length) throw badRequest("At least one of 'entities' or 'watchedAttributes' is required")
    if (raw.q !== undefined && typeof raw.q !== 'string') throw badRequest("'q' must be a string")
    const notification = this.validateNotification(raw.notification)
    let expiresAt: string | undefined
    if (raw.expiresAt !== undefined) {
      if (typeof raw.expiresAt !== 'string' || Number.isNaN(Date.parse(raw.expiresAt))) throw badRequest("'expiresAt' must be a date-time")
      if (profile.pastExpiryRefused && newExpiry && Date.parse(raw.expiresAt) <= this.now().getTime()) {
        throw badRequest(`'expiresAt' ${raw.expiresAt} is in the past`)
      }
      expiresAt = raw.expiresAt
    }
    let throttling: number | undefined
    if (raw.throttling !== undefined) {
      if (typeof raw.throttling !== 'number' || !(raw.throttling > 0)) throw badRequest("'throttling' must be a positive number")
      if (profile.integerThrottling && !Number.isInteger(raw.throttling)) throw badRequest('Failed to parse throtteling: not an integer')
      throttling = raw.throttling
    }
    const notificationTrigger = optionalArray(raw.notificationTrigger, 'notificationTrigger')?.map((trigger) => {
      if (typeof trigger !== 'string' || !notificationTriggers.includes(trigger)) throw badRequest(`Unknown notificationTrigger '${String(trigger)}'`)
      return trigger
    })
    return {
      id: raw.id as string,
      type: 'Subscription',
      ...(typeof raw.subscriptionName === 'string' && { subscriptionName: raw.subscriptionName }),
      ...(typeof raw.description === 'string' && { description: raw.description }),
      ...(entities && { entities }),
      ...(watchedAttributes && { watchedAttributes }),
      ...(raw.q !== undefined && { q: raw.q as string }),
      ...(raw.geoQ !== undefined && { geoQ: raw.geoQ }),
      notification,
      ...(expiresAt && { expiresAt }),
      ...(throttling !== undefined && { throttling }),
      isActive: raw.isActive === undefined ? true : raw.isActive === true,
      ...(notificationTrigger && { notificationTrigger }),
    }
  }

  private validateNotification(raw: unknown): SubscriptionBody['notification'] {
    if (!isObject(raw)) throw badRequest("'notification' is required")
    const endpoint = raw.endpoint
    if (!isObject(endpoint) || typeof endpoint.uri !== 'string') throw badRequest("'notification.endpoint.uri' is required")
    let uri: URL
    try {
      uri = new URL(endpoint.uri)
    } catch {
      throw badRequest(`Invalid endpoint URI '${endpoint.uri}'`)
    }
    if (uri.protocol !== 'http:' && uri.protocol !== 'https:') throw new BrokerError(501, errorTypes.operationNotSupported, 'Operation Not Supported', `${uri.protocol} endpoints are not supported by the demo broker`)
    const accept = endpoint.accept ?? 'application/json'
    if (accept !== 'application/json' && accept !== 'application/ld+json' && accept !== 'application/geo+json') throw badRequest(`Invalid endpoint accept '${String(accept)}'`)
    const receiverInfo = optionalArray(endpoint.receiverInfo, 'receiverInfo')?.map((pair) => {
      if (!isObject(pair) || typeof pair.key !== 'string' || typeof pair.value !== 'string') throw badRequest('receiverInfo items are {key, value}')
      return { key: pair.key, value: pair.value }
    })
    const format = raw.format ?? 'normalized'
    const form: AttributeForm | undefined = format === 'normalized' ? 'normalized' : format === 'keyValues' || format === 'simplified' ? 'keyValues' : format === 'concise' ? 'concise' : undefined
    if (!form) throw badRequest(`Invalid notification format '${String(format)}'`)
    const attributes = optionalArray(raw.attributes, 'notification.attributes')?.map((name) => requireString(name, 'notification.attributes'))
    return {
      ...(attributes && { attributes }),
      format: form,
      ...(raw.sysAttrs === true && { sysAttrs: true }),
      endpoint: {
        uri: endpoint.uri,
        accept,
        ...(receiverInfo && { receiverInfo }),
        ...(typeof endpoint.timeout === 'number' && endpoint.timeout > 0 && { timeout: endpoint.timeout }),
      },
    }
  }

  private list(context: ApiContext): ApiResponse {
    const paging = parsePaging(context.params, this.flavor)
    const all = [...this.subscriptions.values()].filter((subscription) => subscription.tenant === context.tenant)
    return { status: 200, body: all.slice(paging.offset, paging.offset + paging.limit).map((subscription) => this.render(subscription)), ...pageMetadata(context, all.length, paging) }
  }

  private expired(subscription: Subscription): boolean {
    return subscription.body.expiresAt !== undefined && Date.parse(subscription.body.expiresAt) <= this.now().getTime()
  }

  /** A subscription as GET shows it, with this flavor's status members. */
  private render(subscription: Subscription): Record<string, unknown> {
    const profile = this.profile
    const { body } = subscription
    const status = this.expired(subscription) && profile.reportsExpired ? 'expired' : body.isActive ? 'active' : 'paused'
    const notification: Record<string, unknown> = { ...body.notification }
    const timesSent = subscription.timesSent
    if (timesSent > 0 || profile.reportsTimesFailed) notification.timesSent = timesSent
    if (profile.reportsTimesFailed) notification.timesFailed = subscription.timesFailed
    if (profile.reportsNotificationStatus && subscription.lastStatus) notification.status = subscription.lastStatus
    for (const key of ['lastNotification', 'lastSuccess', 'lastFailure'] as const) if (subscription[key]) notification[key] = subscription[key]
    if (profile.pauseAfterFailures !== undefined && subscription.consecutiveErrors > 0) {
      notification.consecutiveErrors = subscription.consecutiveErrors
      notification.lastErrorReason = subscription.lastErrorReason
    }
    const rendered: Record<string, unknown> = { ...body, notification, status }
    // Stellio renders isActive only when false.
    if (this.flavor.name === 'stellio' && body.isActive) delete rendered.isActive
    return rendered
  }

  /** Called after every write: sends the notifications the changes trigger. */
  notify(tenant: Tenant, changes: EntityChange[], requestHeaders: IncomingHttpHeaders): void {
    if (this.silent) return
    const nowMs = this.now().getTime()
    for (const subscription of this.subscriptions.values()) {
      if (subscription.tenant !== tenant || !subscription.body.isActive || this.expired(subscription)) continue
      const matching = changes.filter((change) => this.triggers(subscription, change, nowMs))
      if (matching.length === 0) continue
      const throttling = subscription.body.throttling
      if (throttling && this.profile.throttlingDrops && subscription.lastNotifiedMs !== undefined && nowMs - subscription.lastNotifiedMs < throttling * 1000) continue
      subscription.lastNotifiedMs = nowMs
      const batches = this.profile.onePerEntity ? matching.map((change) => [change]) : [matching]
      for (const batch of batches) this.track(this.send(subscription, batch, nowMs, requestHeaders))
    }
  }

  private triggers(subscription: Subscription, change: EntityChange, nowMs: number): boolean {
    const { body } = subscription
    const { entity } = change
    const selected =
      !body.entities?.length ||
      body.entities.some(
        (selector, index) =>
          (selector.type === entity.type || resolveType(selector.type) === entity.type) &&
          (selector.id === undefined || selector.id === entity.id) &&
          (subscription.idPatterns[index]?.test(entity.id) ?? true),
      )
    if (!selected) return false
    const triggers = body.notificationTrigger ?? this.profile.defaultTriggers
    const allowed = (trigger: string) => triggers === 'all' || triggers.includes(trigger)
    if (change.deletedAt) return allowed('entityDeleted')
    if (change.created) {
      if (!allowed('entityCreated')) return false
    } else if (!allowed('entityUpdated') && !allowed('attributeUpdated') && !allowed('attributeCreated')) {
      return false
    }
    if (body.watchedAttributes?.length && !change.created && !change.attributes.some((name) => body.watchedAttributes!.includes(name))) return false
    return !subscription.query || evaluateQuery(subscription.query, new EntityView(entity, nowMs))
  }

  private async send(subscription: Subscription, changes: EntityChange[], nowMs: number, requestHeaders: IncomingHttpHeaders): Promise<void> {
    const profile = this.profile
    const { notification } = subscription.body
    const { accept } = notification.endpoint
    const representation = {
      form: notification.format,
      attrs: notification.attributes && new Set(notification.attributes),
      mediaType: accept,
      context: subscription.context,
      geometryProperty: 'location',
    }
    const entities = changes.map((change) =>
      change.deletedAt
        ? JSON.stringify({ id: change.entity.id, type: change.entity.type, deletedAt: change.deletedAt })
        : renderEntity(new EntityView(change.entity, nowMs), { ...representation, mediaType: accept === 'application/ld+json' && this.flavor.name === 'orion-ld' ? 'application/json' : accept }),
    )
    const data = accept === 'application/geo+json' ? `{"type":"FeatureCollection","features":[${entities.join(',')}]}` : `[${entities.join(',')}]`
    const envelope = {
      id: profile.notificationId(),
      type: 'Notification',
      subscriptionId: subscription.body.id,
      notifiedAt: profile.notifiedAt(nowMs),
      ...(accept === 'application/ld+json' && this.flavor.name === 'orion-ld' && { '@context': subscription.context }),
    }
    const compact = `${JSON.stringify(envelope).slice(0, -1)},"data":${data}}`
    const text = profile.pretty ? JSON.stringify(JSON.parse(compact), null, 2).replace(/": /g, '" : ') : compact

    const headers: Record<string, string> = { 'Content-Type': accept, ...(accept === 'application/json' && { Link: contextLink(subscription.context) }) }
    let url = notification.endpoint.uri
    switch (this.flavor.name) {
      case 'orion-ld': {
        url += `${url.includes('?') ? '&' : '?'}subscriptionId=${encodeURIComponent(subscription.body.id)}`
        Object.assign(headers, { Accept: 'application/json', 'User-Agent': 'orionld/1.6.0', 'Ngsild-Attribute-Format': { normalized: 'Normalized', keyValues: 'Simplified', concise: 'Concise' }[notification.format] })
        const tenant = headerValue(requestHeaders['ngsild-tenant'])
        if (tenant) headers['Ngsild-Tenant'] = tenant
        // Orion-LD forwards the credentials of whoever made the change.
        for (const name of ['authorization', 'x-auth-token']) {
          const value = headerValue(requestHeaders[name])
          if (value) headers[name] = value
        }
        break
      }
      case 'scorpio':
        headers.Accept = accept
        if (subscription.tenantHeader) headers['NGSILD-Tenant'] = subscription.tenantHeader
        break
      case 'stellio':
        if (subscription.tenantHeader) headers['NGSILD-Tenant'] = subscription.tenantHeader
        break
    }
    for (const pair of notification.endpoint.receiverInfo ?? []) headers[pair.key] = pair.value

    const at = new Date(nowMs).toISOString()
    subscription.lastNotification = at
    let delivered = false
    let reason = ''
    const attempts = this.flavor.name === 'scorpio' ? 3 : 1
    for (let attempt = 0; attempt < attempts && !delivered; attempt++) {
      try {
        if (!this.reachable) throw new Error('connect ECONNREFUSED (demo: endpoint unreachable)')
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: text,
          redirect: 'manual',
          signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(notification.endpoint.timeout ?? profile.timeoutMs)]),
        })
        await response.arrayBuffer().catch(() => undefined)
        delivered = profile.delivered(response.status, response.headers.has('content-length'))
        reason = delivered ? '' : `HTTP ${response.status}`
        // Scorpio retries connection errors only.
        break
      } catch (error) {
        if (this.controller.signal.aborted) return
        reason = (error as Error).message
      }
    }
    if (delivered || profile.timesSentCountsFailures) subscription.timesSent++
    if (delivered) {
      subscription.lastSuccess = at
      subscription.lastStatus = 'ok'
      subscription.consecutiveErrors = 0
      return
    }
    subscription.timesFailed++
    subscription.lastFailure = at
    subscription.lastStatus = 'failed'
    subscription.lastErrorReason = reason
    subscription.consecutiveErrors++
    if (profile.pauseAfterFailures !== undefined && subscription.consecutiveErrors >= profile.pauseAfterFailures) subscription.body.isActive = false
  }

  private track(promise: Promise<void>): void {
    const tracked = promise.catch(() => undefined).finally(() => this.inFlight.delete(tracked))
    this.inFlight.add(tracked)
  }

  /** Resolves when every notification sent so far has been answered (tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight])
  }

  close(): void {
    this.controller.abort()
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function optionalArray(value: unknown, name: string): unknown[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw badRequest(`'${name}' must be an array`)
  return value
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw badRequest(`'${name}' items must be strings`)
  return value
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined
}

function headerContext(headers: IncomingHttpHeaders): string {
  const link = headerValue(headers.link)
  return (link && /<([^>]+)>/.exec(link)?.[1]) || CORE_CONTEXT
}
