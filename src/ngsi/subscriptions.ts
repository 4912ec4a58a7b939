// NGSI-LD subscriptions (ETSI GS CIM 009 5.8): the requests that create, read, renew and
// delete them, the shape of a notification, and what a subscription's status says about
// delivery on each broker (shared/ngsi-ld/SUBSCRIPTIONS.md). Pure: no Next, no Payload.

import { request } from 'undici'
import { z } from 'zod'

import { errorFromResponse, isRetryable, NgsiError } from './errors'
import { encode, queryString, requestHeaders, type HttpConfig } from './http'
import { normalizeEntity, type NormalizedEntity } from './normalize'
import { undiciTransport } from './transport'

/** What the dashboard asks a broker for: only members all three brokers accept (no notificationTrigger for Orion-LD). */
export interface SubscriptionRequest {
  subscriptionName: string
  description?: string
  entityType: string
  /** Attributes carried in notifications (the layer's, plus location). */
  attributes: string[]
  q?: string
  endpoint: string
  /** Whole seconds (Scorpio and Stellio refuse fractions); omitted when 0. */
  throttlingSeconds?: number
  expiresAt: string
}

/** What GET /subscriptions/{id} tells about delivery, the three brokers' members merged. */
export interface SubscriptionStatus {
  id: string
  subscriptionName?: string
  description?: string
  endpoint?: string
  status?: string
  isActive?: boolean
  expiresAt?: string
  timesSent?: number
  timesFailed?: number
  notificationStatus?: string
  lastNotification?: string
  lastSuccess?: string
  lastFailure?: string
}

export interface SubscriptionClientOptions {
  brokerUrl: string
  contextUrl: string
  authToken?: string
  timeoutMs?: number
}

const API_PREFIX = '/ngsi-ld/v1'

/** Subscriptions of one broker; every call names its tenant. */
export class SubscriptionClient {
  private readonly api: string
  private readonly http: HttpConfig

  constructor(options: SubscriptionClientOptions) {
    const root = new URL(options.brokerUrl)
    const base = `${root.origin}${root.pathname}`.replace(/\/+$/, '')
    this.api = base.endsWith(API_PREFIX) ? base : `${base}${API_PREFIX}`
    this.http = { transport: undiciTransport, contextUrl: options.contextUrl, authToken: options.authToken, timeoutMs: options.timeoutMs ?? 10_000, retries: 0 }
  }

  /** Creates the subscription; answers the id the broker gave it (from Location). */
  async create(tenant: string | undefined, wanted: SubscriptionRequest, contextUrl?: string): Promise<string> {
    const body = {
      type: 'Subscription',
      subscriptionName: wanted.subscriptionName,
      ...(wanted.description && { description: wanted.description }),
      entities: [{ type: wanted.entityType }],
      ...(wanted.q && { q: wanted.q }),
      notification: {
        attributes: wanted.attributes,
        // normalized keeps observedAt per attribute: newer-only application needs it (keyValues drops it).
        format: 'normalized',
        endpoint: { uri: wanted.endpoint, accept: 'application/json' },
      },
      expiresAt: wanted.expiresAt,
      ...(wanted.throttlingSeconds && wanted.throttlingSeconds >= 1 && { throttling: Math.round(wanted.throttlingSeconds) }),
    }
    const answer = await this.send('POST', '/subscriptions', tenant, body, contextUrl)
    const location = answer.headers.location
    const id = typeof location === 'string' ? decodeURIComponent(location.split('/').pop() ?? '') : ''
    if (!id) throw new NgsiError('invalid-response', 'The broker created a subscription without a Location')
    return id
  }

  async get(tenant: string | undefined, id: string): Promise<SubscriptionStatus> {
    const answer = await this.send('GET', `/subscriptions/${encode(id)}`, tenant)
    return subscriptionStatus(answer.body)
  }

  /** Every subscription of the tenant, page by page (limit 100 is within every broker's maximum). */
  async list(tenant: string | undefined): Promise<SubscriptionStatus[]> {
    const all: SubscriptionStatus[] = []
    for (let offset = 0; offset < 100_000; offset += 100) {
      const answer = await this.send('GET', `/subscriptions${queryString({ limit: 100, offset: offset || undefined })}`, tenant)
      const items = Array.isArray(answer.body) ? answer.body : []
      all.push(...items.flatMap((item) => (typeof (item as { id?: unknown })?.id === 'string' ? [subscriptionStatus(item)] : [])))
      if (items.length < 100) break
    }
    return all
  }

  /** PATCH: extends the expiry (renewal) or sets isActive (Orion-LD pauses after 3 failures). */
  async update(tenant: string | undefined, id: string, fragment: { expiresAt?: string; isActive?: boolean }): Promise<void> {
    await this.send('PATCH', `/subscriptions/${encode(id)}`, tenant, fragment)
  }

  /**
   * Whether the broker answers at all, within `timeoutMs`: one subscription asked for. Any answer
   * but a 5xx counts (a tenant the broker does not know yet is a 404 from a working broker).
   */
  async answers(tenant: string | undefined, timeoutMs: number): Promise<boolean> {
    try {
      await this.send('GET', `/subscriptions${queryString({ limit: 1 })}`, tenant, undefined, undefined, timeoutMs)
      return true
    } catch (error) {
      return !isRetryable(error)
    }
  }

  /** Deletes; a subscription already gone counts as deleted. */
  async delete(tenant: string | undefined, id: string): Promise<void> {
    try {
      await this.send('DELETE', `/subscriptions/${encode(id)}`, tenant)
    } catch (error) {
      if (error instanceof NgsiError && error.kind === 'not-found') return
      throw error
    }
  }

  private async send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, tenant: string | undefined, body?: unknown, contextUrl?: string, timeoutMs = this.http.timeoutMs) {
    const headers = requestHeaders(this.http, { tenant, contextUrl })
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response
    try {
      response = await request(this.api + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new NgsiError('network', `The broker could not be reached (${(error as Error).message})`, { cause: error })
    }
    const text = await response.body.text()
    if (response.statusCode >= 300) {
      const contentType = response.headers['content-type']
      throw errorFromResponse(response.statusCode, '', text, typeof contentType === 'string' ? contentType : null)
    }
    let parsed: unknown = null
    if (text.trim()) {
      try {
        parsed = JSON.parse(text)
      } catch (error) {
        throw new NgsiError('invalid-response', 'The broker answered with a body that is not JSON', { cause: error })
      }
    }
    return { headers: response.headers, body: parsed }
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/** The status members of a subscription as any of the brokers renders it. */
export function subscriptionStatus(raw: unknown): SubscriptionStatus {
  const item = (raw ?? {}) as Record<string, unknown>
  const notification = (item.notification ?? {}) as Record<string, unknown>
  const endpoint = (notification.endpoint ?? {}) as Record<string, unknown>
  return {
    id: String(item.id),
    subscriptionName: text(item.subscriptionName) ?? text(item.name),
    description: text(item.description),
    endpoint: text(endpoint.uri),
    status: text(item.status),
    isActive: typeof item.isActive === 'boolean' ? item.isActive : undefined,
    expiresAt: text(item.expiresAt),
    timesSent: count(notification.timesSent),
    timesFailed: count(notification.timesFailed),
    notificationStatus: text(notification.status),
    lastNotification: text(notification.lastNotification),
    lastSuccess: text(notification.lastSuccess),
    lastFailure: text(notification.lastFailure),
  }
}

/**
 * Whether the broker has stopped delivering: paused or expired (Orion-LD after 3 failures), last
 * attempt failed (Orion-LD, Stellio), or failures newer than the last success (Scorpio's timesFailed).
 */
export function deliveryFailing(status: SubscriptionStatus, now = Date.now()): string | undefined {
  if (status.status === 'paused' || status.isActive === false) return 'the broker paused the subscription'
  if (subscriptionExpired(status, now)) return 'the subscription expired'
  if (status.notificationStatus === 'failed') return `notifications fail (last failure ${status.lastFailure ?? 'unknown'})`
  const failedAt = status.lastFailure ? Date.parse(status.lastFailure) : Number.NaN
  const succeededAt = status.lastSuccess ? Date.parse(status.lastSuccess) : Number.NaN
  if (Number.isFinite(failedAt) && !(succeededAt > failedAt)) return `notifications fail (last failure ${status.lastFailure})`
  return undefined
}

/** Past its expiry: Orion-LD and Stellio say `expired`; Scorpio keeps saying `active`, so the date is read too. */
export function subscriptionExpired(status: SubscriptionStatus, now = Date.now()): boolean {
  return status.status === 'expired' || (status.expiresAt !== undefined && Date.parse(status.expiresAt) <= now)
}

/** A notification body (5.3.1): checked at the edge; `data` entities are normalised like query results. */
export const notificationSchema = z.object({
  type: z.literal('Notification'),
  subscriptionId: z.string().min(1).max(2048),
  id: z.string().max(2048).optional(),
  notifiedAt: z.string().max(64).optional(),
  data: z.array(z.record(z.string(), z.unknown())).max(100_000),
})

export type NotificationBody = z.infer<typeof notificationSchema>

export interface NotifiedChanges {
  subscriptionId: string
  upserted: NormalizedEntity[]
  /** Ids of entities the broker reports deleted (`deletedAt`). */
  removed: string[]
  /** Entities that could not be read (no id), of another type than subscribed, or dated in the future: left out. */
  skipped: number
}

/** What a notification must match: the subscribed entity type, and times no later than now plus the skew brokers' clocks may have. */
export interface NotificationExpectation {
  entityType: string
  now: number
  /** How far ahead of this server's clock a broker's timestamp may be. */
  maxSkewMs: number
}

/** A broker's clock may run this much ahead of ours. */
export const NOTIFICATION_CLOCK_SKEW_MS = 5 * 60_000

// A type as the layer's context compacts it, or the full IRI when the context lacks the term.
const isType = (type: string, expected: string) => type === expected || type.endsWith(`/${expected}`) || type.endsWith(`#${expected}`)

const isLater = (time: string | undefined, limit: number) => time !== undefined && Date.parse(time) > limit

/**
 * The entities of a notification, normalised as loads are; deleted ones apart. A notification is a
 * hint from whoever holds the token: an entity of another type than the one subscribed, or one observed, modified or deleted later than now (plus the clock skew), is left
 * out, so a forged one can neither add foreign stations nor pin a value with a far-future time.
 */
export function notifiedChanges(body: NotificationBody, expected: NotificationExpectation): NotifiedChanges {
  const upserted: NormalizedEntity[] = []
  const removed: string[] = []
  let skipped = 0
  const latest = expected.now + expected.maxSkewMs
  for (const raw of body.data) {
    if (typeof raw.id !== 'string' || raw.id.length === 0) {
      skipped++
      continue
    }
    if (typeof raw.deletedAt === 'string') {
      if (isLater(raw.deletedAt, latest)) skipped++
      else removed.push(raw.id)
      continue
    }
    try {
      const entity = normalizeEntity(raw)
      const foreign = entity.types.length > 0 && !entity.types.some((type) => isType(type, expected.entityType))
      if (foreign || isLater(entity.observedAt, latest) || isLater(entity.modifiedAt, latest)) skipped++
      else upserted.push(entity)
    } catch {
      skipped++
    }
  }
  return { subscriptionId: body.subscriptionId, upserted, removed, skipped }
}
