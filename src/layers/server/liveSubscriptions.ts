// The server's NGSI-LD subscriptions: one per (layer, city) that is public or watched, made,
// renewed, checked and deleted here, recorded where every replica reads them (Redis, else
// memory). Each has its own notification token; only its SHA-256 is stored.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

import type { CacheLock } from '@/cache'
import { buildQuery, deliveryFailing, NgsiError, rowsToQuery, subscriptionExpired, type SubscriptionClient, type SubscriptionRequest } from '@/ngsi'

import type { LayerSpec } from './features'

export interface LiveTarget {
  layer: LayerSpec
  tenant: string
  /** Made because someone watches a layer that is not public: kept until then (ms), renewed while watched. */
  watchedUntil?: number
}

export interface LiveRecord {
  key: string
  layerId: string
  tenant: string
  subscriptionId: string
  tokenHash: string
  /** The layer settings the subscription was made from: a change of them replaces it. */
  shape: string
  /** What was asked of the broker, without the endpoint (its token is kept nowhere but at the broker). */
  request: Omit<SubscriptionRequest, 'endpoint'>
  contextUrl?: string
  expiresAt: string
  mode: 'live' | 'polling'
  reason?: string
  /** Set for a members-only layer's subscription: deleted once no stream has watched it until then (ms). */
  watchedUntil?: number
  /** The layer's live version at the last check: one that has not moved since means no notification arrived. */
  checkedVersion?: number
  /** Whether the broker held the subscription when last asked (made, or read back by a check); unknown while it cannot be asked. */
  atBroker?: boolean
}

/** What a check learnt of a subscription beyond the broker's own status (see LiveLayers). */
export interface DeliveryEvidence {
  /** Why the layer must poll although the broker reports no failure; undefined: it delivers. */
  reason?: string
  version: number
}

/** Where records are kept: a Redis hash for all replicas, or a Map for one process. */
export interface LiveRegistry {
  all(): Promise<LiveRecord[]>
  get(key: string): Promise<LiveRecord | undefined>
  put(record: LiveRecord): Promise<void>
  remove(key: string): Promise<void>
  keyOfToken(tokenHash: string): Promise<string | undefined>
  /** Notes that the registry holds every subscription (after a reconciliation). */
  markReconciled(): Promise<void>
  /** False once what markReconciled noted is gone: the store lost its data (Redis restarted empty). */
  isReconciled(): Promise<boolean>
  /** Since when (ISO) the broker has not answered the probe; undefined while it answers. */
  brokerDownSince(): Promise<string | undefined>
  setBrokerDownSince(since: string | undefined): Promise<void>
}

export function memoryRegistry(): LiveRegistry {
  const records = new Map<string, LiveRecord>()
  let downSince: string | undefined
  return {
    async all() {
      return [...records.values()]
    },
    async get(key) {
      return records.get(key)
    },
    async put(record) {
      records.set(record.key, record)
    },
    async remove(key) {
      records.delete(key)
    },
    async keyOfToken(tokenHash) {
      return [...records.values()].find((record) => record.tokenHash === tokenHash)?.key
    },
    // In this process's memory: lost only with the process, whose start reconciles.
    async markReconciled() {},
    async isReconciled() {
      return true
    },
    async brokerDownSince() {
      return downSince
    },
    async setBrokerDownSince(since) {
      downSince = since
    },
  }
}

export interface RedisHashLike {
  get(key: string): Promise<string | null>
  set(key: string, value: string): Promise<unknown>
  hgetall(key: string): Promise<Record<string, string>>
  hget(key: string, field: string): Promise<string | null>
  hset(key: string, field: string, value: string): Promise<unknown>
  hdel(key: string, field: string): Promise<unknown>
}

/** `ready`: connects the (lazy, fail-fast) client, false when Redis cannot be reached. */
export function redisRegistry(client: RedisHashLike, keyPrefix: string, ready: () => Promise<boolean>): LiveRegistry {
  const recordsKey = `${keyPrefix}live:subscriptions`
  const tokensKey = `${keyPrefix}live:tokens`
  const reconciledKey = `${keyPrefix}live:reconciled`
  const brokerDownKey = `${keyPrefix}live:broker-down`
  const parse = (text: string | null | undefined) => (text ? (JSON.parse(text) as LiveRecord) : undefined)
  const redis = async () => {
    if (!(await ready())) throw new Error('Redis is unavailable')
    return client
  }
  return {
    async all() {
      return Object.values(await (await redis()).hgetall(recordsKey)).flatMap((text) => parse(text) ?? [])
    },
    async get(key) {
      return parse(await (await redis()).hget(recordsKey, key))
    },
    async put(record) {
      const connection = await redis()
      await connection.hset(recordsKey, record.key, JSON.stringify(record))
      await connection.hset(tokensKey, record.tokenHash, record.key)
    },
    async remove(key) {
      const connection = await redis()
      const record = parse(await connection.hget(recordsKey, key))
      await connection.hdel(recordsKey, key)
      if (record) await connection.hdel(tokensKey, record.tokenHash)
    },
    async keyOfToken(tokenHash) {
      return (await (await redis()).hget(tokensKey, tokenHash)) ?? undefined
    },
    async markReconciled() {
      await (await redis()).set(reconciledKey, new Date().toISOString())
    },
    async isReconciled() {
      return (await (await redis()).get(reconciledKey)) !== null
    },
    async brokerDownSince() {
      return (await (await redis()).get(brokerDownKey)) || undefined
    },
    // An empty value says "answering": the client this registry is given has no DEL.
    async setBrokerDownSince(since) {
      await (await redis()).set(brokerDownKey, since ?? '')
    },
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export interface LiveSubscriptionsOptions {
  client: SubscriptionClient
  registry: LiveRegistry
  /** A lock shared by the replicas (the cache's), so one of them makes each subscription. */
  lock: (name: string, ttlMs: number) => Promise<CacheLock | null>
  /** The dashboard's address as the broker sees it (NGSI_LD_NOTIFY_URL). */
  notifyUrl: string
  /** Every subscription's name starts with this; reconciliation deletes unknown ones that carry it and notify `notifyUrl`. */
  namePrefix: string
  /**
   * Whether a layer still wants its subscriptions: it exists and is public, or (`watched`) members
   * watch it. Asked at each renewal (read fresh from the database), so a subscription whose layer
   * went while nobody could tell (a crash, a removal before its creation began) lasts one period.
   */
  wanted?: (layerId: string, watched: boolean) => Promise<boolean>
  expirySeconds?: number
  now?: () => number
  logger?: { warn(message: string): void }
}

/** Renew when less than this share of the lifetime is left. */
const RENEW_BELOW = 0.5

export class LiveSubscriptions {
  private readonly options: Required<Omit<LiveSubscriptionsOptions, 'logger'>> & Pick<LiveSubscriptionsOptions, 'logger'>

  constructor(options: LiveSubscriptionsOptions) {
    this.options = { expirySeconds: 86_400, now: Date.now, ...options, wanted: options.wanted ?? (async () => true) }
  }

  static keyOf(layerId: string | number, tenant: string): string {
    return `${layerId}:${tenant}`
  }

  private nameOf(layerId: string | number, tenant: string): string {
    return `${this.options.namePrefix}:layer:${layerId}:${tenant}`
  }

  /** The record whose token this is, compared in constant time; undefined for any other string. */
  async byToken(token: string): Promise<LiveRecord | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
    const hashed = hashToken(token)
    const key = await this.options.registry.keyOfToken(hashed)
    const record = key ? await this.options.registry.get(key) : undefined
    if (!record) return undefined
    return timingSafeEqual(Buffer.from(record.tokenHash, 'hex'), Buffer.from(hashed, 'hex')) ? record : undefined
  }

  records(): Promise<LiveRecord[]> {
    return this.options.registry.all()
  }

  /** The subscription of a (layer, city), made (or replaced, when the layer's settings changed) once across replicas. */
  async ensure({ layer, tenant, watchedUntil }: LiveTarget): Promise<LiveRecord> {
    const key = LiveSubscriptions.keyOf(layer.id, tenant)
    const shape = shapeOf(layer)
    const known = await this.options.registry.get(key)
    if (known?.shape === shape) return this.keepWatched(known, watchedUntil)
    const lock = await this.waitForLock(this.lockOf(layer.id))
    try {
      const current = await this.options.registry.get(key)
      if (current?.shape === shape) return await this.keepWatched(current, watchedUntil)
      if (current) await this.deleteRecord(current)
      return await this.create(key, layer, tenant, shape, watchedUntil)
    } finally {
      await lock?.release()
    }
  }

  /**
   * One lock per layer, for all its cities: removing a layer (deleted, unpublished) waits for a
   * creation in flight, then deletes what it made; the broker is left holding nothing.
   */
  private lockOf(layerId: string | number): string {
    return `live-subscription:layer:${layerId}`
  }

  /** A public target clears `watchedUntil` (kept for good); a watched one pushes it later. */
  private async keepWatched(record: LiveRecord, watchedUntil: number | undefined): Promise<LiveRecord> {
    const next = watchedUntil === undefined || record.watchedUntil === undefined ? undefined : Math.max(watchedUntil, record.watchedUntil)
    if (next === record.watchedUntil) return record
    const updated = { ...record, watchedUntil: next }
    await this.options.registry.put(updated)
    return updated
  }

  /** Deletes the subscriptions of a layer (deleted, unpublished), after any creation of them in flight. */
  async removeLayer(layerId: string | number): Promise<void> {
    const lock = await this.waitForLock(this.lockOf(layerId))
    try {
      for (const record of await this.options.registry.all()) if (record.layerId === String(layerId)) await this.deleteRecord(record)
    } finally {
      await lock?.release()
    }
  }

  /**
   * Makes the subscriptions `wanted` and deletes every other one: records for no wanted target,
   * and broker subscriptions carrying our name prefix and notify URL that no record knows (left by
   * a crash); another deployment's, whatever their name, stay.
   */
  async reconcile(wanted: LiveTarget[], tenants: string[]): Promise<{ created: number; deleted: number }> {
    const wantedKeys = new Set(wanted.map(({ layer, tenant }) => LiveSubscriptions.keyOf(layer.id, tenant)))
    let deleted = 0
    for (const record of await this.options.registry.all()) {
      if (wantedKeys.has(record.key)) continue
      await this.deleteRecord(record)
      deleted++
    }
    const before = new Set((await this.options.registry.all()).map((record) => record.subscriptionId))
    let created = 0
    for (const target of wanted) {
      const record = await this.ensure(target)
      if (!before.has(record.subscriptionId)) created++
    }
    const known = new Set((await this.options.registry.all()).map((record) => record.subscriptionId))
    const prefix = `${this.options.namePrefix}:layer:`
    for (const tenant of new Set([...tenants, ...wanted.map((target) => target.tenant)])) {
      for (const found of await this.options.client.list(tenant)) {
        // Another deployment on this broker (staging beside production, another department's site)
        // may carry the same name prefix: only subscriptions that notify this one are ours.
        if (!found.subscriptionName?.startsWith(prefix) || known.has(found.id) || !found.endpoint?.startsWith(this.notifyRoute())) continue
        await this.options.client.delete(tenant, found.id)
        deleted++
      }
    }
    await this.options.registry.markReconciled()
    return { created, deleted }
  }

  /**
   * Asks the broker whether it answers, within `timeoutMs`, and notes since when it has not (for
   * every replica); `changed` when this probe found it the other way round from the last one.
   */
  async probe(timeoutMs: number): Promise<{ downSince?: string; changed: boolean }> {
    // The default tenant: any answer but a 5xx counts, so no city's records need reading every few seconds.
    const answers = await this.options.client.answers(undefined, timeoutMs)
    const before = await this.options.registry.brokerDownSince()
    if (answers === !before) return { downSince: before, changed: false }
    const downSince = answers ? undefined : new Date(this.options.now()).toISOString()
    await this.options.registry.setBrokerDownSince(downSince)
    return { downSince, changed: true }
  }

  brokerDownSince(): Promise<string | undefined> {
    return this.options.registry.brokerDownSince()
  }

  /** Whether the registry lost its records since the last reconciliation (Redis restarted empty): then reconcile again. */
  async registryLost(): Promise<boolean> {
    return !(await this.options.registry.isReconciled())
  }

  /**
   * Extends every subscription past half its lifetime; recreates one the broker lost; deletes
   * members-only ones no longer watched, and any whose layer is gone or no longer public.
   */
  async renew(): Promise<number> {
    let renewed = 0
    const now = this.options.now()
    for (const record of await this.options.registry.all()) {
      // A database that cannot say keeps the subscription: the next renewal asks again.
      const wanted = await this.options.wanted(record.layerId, record.watchedUntil !== undefined).catch(() => true)
      if ((record.watchedUntil !== undefined && record.watchedUntil < now) || !wanted) {
        await this.deleteRecord(record)
        continue
      }
      const left = Date.parse(record.expiresAt) - now
      if (left > this.options.expirySeconds * 1000 * RENEW_BELOW) continue
      await this.extend(record, {})
      renewed++
    }
    return renewed
  }

  /** Gives a subscription its full lifetime again (`also`: more members for the same PATCH); one the broker lost is made again. */
  private async extend(record: LiveRecord, also: { isActive?: boolean }): Promise<void> {
    const expiresAt = new Date(this.options.now() + this.options.expirySeconds * 1000).toISOString()
    try {
      await this.options.client.update(record.tenant, record.subscriptionId, { expiresAt, ...also })
      await this.options.registry.put({ ...record, expiresAt })
    } catch (error) {
      if (!(error instanceof NgsiError && error.kind === 'not-found')) throw error
      await this.recreate(record)
    }
  }

  /**
   * Reads each subscription back: a broker that stopped delivering (paused, expired, failures
   * newer than successes) puts its layer on polling; one that delivers again puts it back on
   * live (Orion-LD needs isActive set again after pausing). `delivery` then judges the ones the
   * broker reports well (data changed with no notification). Returns the records whose mode changed.
   */
  async check(delivery?: (record: LiveRecord) => Promise<DeliveryEvidence>): Promise<LiveRecord[]> {
    const changed: LiveRecord[] = []
    for (const record of await this.options.registry.all()) {
      let reason: string | undefined
      let checkedVersion = record.checkedVersion
      let atBroker = record.atBroker
      try {
        const status = await this.options.client.get(record.tenant, record.subscriptionId)
        atBroker = true
        reason = deliveryFailing(status, this.options.now())
        // Repaired now, judged at the next check: an expired one (Scorpio still says active) gets
        // its lifetime back, and is active again (Orion-LD sets isActive false at expiry); a paused one is reactivated.
        if (reason && subscriptionExpired(status, this.options.now())) {
          await this.extend(record, { isActive: true }).catch((error: unknown) => this.options.logger?.warn(`live: could not renew the expired subscription of layer ${record.layerId} in ${record.tenant} (${error instanceof Error ? error.message : String(error)})`))
        } else if (reason && status.isActive === false) {
          await this.options.client.update(record.tenant, record.subscriptionId, { isActive: true }).catch(() => undefined)
        }
      } catch (error) {
        if (error instanceof NgsiError && error.kind === 'not-found') {
          atBroker = false
          await this.recreate(record)
          reason = 'the broker lost the subscription (made again)'
        } else {
          reason = `the broker cannot be asked (${error instanceof Error ? error.message : String(error)})`
        }
      }
      if (!reason && delivery) {
        try {
          ;({ reason, version: checkedVersion } = await delivery(record))
        } catch (error) {
          // Unjudged this time (the broker or the cache did not answer): the mode stays as it was.
          this.options.logger?.warn(`live: could not compare layer ${record.layerId} in ${record.tenant} with the broker (${error instanceof Error ? error.message : String(error)})`)
          reason = record.mode === 'polling' ? record.reason : undefined
        }
      }
      const mode = reason ? 'polling' : 'live'
      if (mode !== record.mode || reason !== record.reason || checkedVersion !== record.checkedVersion || atBroker !== record.atBroker) {
        const current = await this.options.registry.get(record.key)
        // Deleted while this check ran (its layer was removed): nothing to mark.
        if (!current) continue
        // Made again (a new subscription id): the broker holds the new one.
        const updated: LiveRecord = { ...current, mode, reason, checkedVersion, atBroker: current.subscriptionId !== record.subscriptionId || atBroker }
        await this.options.registry.put(updated)
        if (mode !== record.mode) changed.push(updated)
      }
    }
    return changed
  }

  private async create(key: string, layer: LayerSpec, tenant: string, shape: string, watchedUntil: number | undefined): Promise<LiveRecord> {
    const request: Omit<SubscriptionRequest, 'endpoint'> = {
      subscriptionName: this.nameOf(layer.id, tenant),
      description: `City dashboard: live changes of map layer ${layer.id} in ${tenant}`,
      entityType: layer.entityType,
      attributes: [...new Set([...layer.attributes, 'location'])],
      q: layer.filters.length > 0 ? buildQuery(rowsToQuery(layer.filters)) : undefined,
      throttlingSeconds: layer.liveThrottleSeconds || undefined,
      expiresAt: new Date(this.options.now() + this.options.expirySeconds * 1000).toISOString(),
    }
    const { subscriptionId, tokenHash } = await this.subscribe(tenant, request, layer.contextUrl)
    const record: LiveRecord = {
      key,
      layerId: String(layer.id),
      tenant,
      subscriptionId,
      tokenHash,
      shape,
      request,
      contextUrl: layer.contextUrl,
      expiresAt: request.expiresAt,
      mode: 'live',
      atBroker: true,
      ...(watchedUntil !== undefined && { watchedUntil }),
    }
    await this.options.registry.put(record)
    return record
  }

  /** Where the broker notifies this deployment: the notify route under NGSI_LD_NOTIFY_URL, before the token. */
  private notifyRoute() {
    return `${this.options.notifyUrl.replace(/\/+$/, '')}/api/ngsi-ld/notify/`
  }

  /** Creates at the broker with a new token in the endpoint; only the token's hash is kept. */
  private async subscribe(tenant: string, request: Omit<SubscriptionRequest, 'endpoint'>, contextUrl: string | undefined) {
    const token = randomBytes(32).toString('base64url')
    const endpoint = `${this.notifyRoute()}${token}`
    const subscriptionId = await this.options.client.create(tenant, { ...request, endpoint }, contextUrl)
    return { subscriptionId, tokenHash: hashToken(token) }
  }

  /** The same subscription made again (the broker lost it), with a new token. */
  private async recreate(record: LiveRecord): Promise<void> {
    const expiresAt = new Date(this.options.now() + this.options.expirySeconds * 1000).toISOString()
    const request = { ...record.request, expiresAt }
    const { subscriptionId, tokenHash } = await this.subscribe(record.tenant, request, record.contextUrl)
    await this.options.registry.remove(record.key)
    await this.options.registry.put({ ...record, subscriptionId, tokenHash, request, expiresAt })
  }

  private async deleteRecord(record: LiveRecord): Promise<void> {
    try {
      await this.options.client.delete(record.tenant, record.subscriptionId)
    } catch (error) {
      // The broker may be down: the record goes anyway, reconciliation deletes the subscription later.
      this.options.logger?.warn(`live: could not delete subscription of layer ${record.layerId} in ${record.tenant} (${error instanceof Error ? error.message : String(error)})`)
    }
    await this.options.registry.remove(record.key)
  }

  private async waitForLock(name: string): Promise<CacheLock | null> {
    const deadline = Date.now() + 15_000
    for (;;) {
      const lock = await this.options.lock(name, 20_000)
      if (lock || Date.now() > deadline) return lock
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
}

/** The settings a subscription is made from. */
function shapeOf(layer: LayerSpec): string {
  return JSON.stringify([layer.entityType, [...layer.attributes].sort(), layer.filters, layer.contextUrl ?? '', layer.liveThrottleSeconds ?? 0])
}

/** The (layer, city) pairs a public layer is subscribed for: its bound city, else every city of the site, else the broker's default tenant. */
export function liveTargets(layer: LayerSpec, boundTenant: string | null | undefined, siteTenants: string[], defaultTenant: string | undefined): LiveTarget[] {
  const tenants = boundTenant ? [boundTenant] : siteTenants.length > 0 ? siteTenants : [defaultTenant ?? '']
  return tenants.map((tenant) => ({ layer, tenant }))
}
