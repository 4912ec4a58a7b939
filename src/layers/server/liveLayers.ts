// Live layers, put together: a broker notification (its token already matched to a subscription)
// becomes changes applied to the cached layer and one event on the bus; subscriptions are made,
// renewed and checked on a schedule that runs on one replica at a time.

import type { CacheLock } from '@/cache'
import { type Feature, featureProperties, NOTIFICATION_CLOCK_SKEW_MS, type NormalizedEntity, notifiedChanges, type NotificationBody, toFeature } from '@/ngsi'

import type { LiveEvent } from '../shared/liveEvents'

import { withAlert } from './body'
import type { LayerFeatureService, LayerSpec } from './features'
import { channelOf, type LiveHub } from './live'
import { type DeliveryEvidence, type LiveRecord, LiveSubscriptions, type LiveTarget } from './liveSubscriptions'

/** Why a layer polls although its broker reports no failed notification. */
export const UNNOTIFIED_CHANGE = 'the data changed at the broker but no notification arrived'
/** Broker entities a check compares with the cached layer: one small request per (layer, city). */
const PROBE_SAMPLE = 100
/** Changes younger than this (plus the layer's throttling) may still have their notification on the way. */
const NOTIFICATION_GRACE_MS = 5_000

export interface LiveLayersOptions {
  hub: LiveHub
  subscriptions: LiveSubscriptions
  features: LayerFeatureService
  /** The layer as stored now (undefined: deleted); the entry room reads it from the database. */
  layerSpec: (layerId: string) => Promise<LayerSpec | undefined>
  /** Layers with more features are drawn from tiles (LAYER_TILES_THRESHOLD). */
  tileThreshold: number
  lock: (name: string, ttlMs: number) => Promise<CacheLock | null>
  /** Compare the broker's data with the cached layers at each check (LIVE_DATA_CHECK). */
  checkData?: boolean
  now?: () => number
  logger?: { warn(message: string): void }
}

export interface LiveStatus {
  /** (layer, city) pairs with a subscription. */
  layers: number
  subscribed: number
  polling: number
  /** Since when the broker has not answered the probe (every layer polls meanwhile). */
  brokerDownSince?: string
  /** Subscriptions the broker held when last asked (made, or read back by the last check). */
  atBroker: number
  details: { layerId: string; tenant: string; mode: 'live' | 'polling'; reason?: string }[]
}

/** Why every layer polls while the broker does not answer. */
const BROKER_DOWN = 'the broker is not answering'

/** A feature from a notified entity; without a geometry the cached one is kept (geometry left empty here). */
function notifiedFeature(entity: NormalizedEntity, attributes: string[]): Feature {
  const located = toFeature(entity, attributes)
  if (located) return located
  return { type: 'Feature', id: entity.id, geometry: undefined as unknown as Feature['geometry'], properties: featureProperties(entity, attributes) }
}

export class LiveLayers {
  private readonly options: LiveLayersOptions
  /** Changes waiting per (layer, city): one applies while more arrive, then they go together. */
  private readonly pending = new Map<string, { record: LiveRecord; upserted: Map<string, NormalizedEntity>; removed: Set<string> }>()
  private readonly running = new Map<string, Promise<void>>()
  private maintenance: NodeJS.Timeout | undefined
  private probing: NodeJS.Timeout | undefined

  constructor(options: LiveLayersOptions) {
    this.options = options
  }

  get hub(): LiveHub {
    return this.options.hub
  }

  get subscriptions(): LiveSubscriptions {
    return this.options.subscriptions
  }

  /**
   * Takes a notification for `record`: queued and applied after the caller has answered the broker
   * (brokers give up after a few seconds). Returns how many entities it carried.
   */
  accept(record: LiveRecord, body: NotificationBody): number {
    const now = this.options.now?.() ?? Date.now()
    const changes = notifiedChanges(body, { entityType: record.request.entityType, now, maxSkewMs: NOTIFICATION_CLOCK_SKEW_MS })
    let queued = this.pending.get(record.key)
    if (!queued) this.pending.set(record.key, (queued = { record, upserted: new Map(), removed: new Set() }))
    for (const entity of changes.upserted) {
      queued.removed.delete(entity.id)
      queued.upserted.set(entity.id, entity)
    }
    for (const id of changes.removed) {
      queued.upserted.delete(id)
      queued.removed.add(id)
    }
    if (!this.running.has(record.key)) {
      const run = this.drain(record.key).finally(() => this.running.delete(record.key))
      this.running.set(record.key, run)
    }
    return changes.upserted.length + changes.removed.length
  }

  /** Resolves when every accepted notification has been applied and published (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()])
  }

  private async drain(key: string): Promise<void> {
    for (let batch = this.pending.get(key); batch; batch = this.pending.get(key)) {
      this.pending.delete(key)
      try {
        await this.apply(batch.record, [...batch.upserted.values()], [...batch.removed])
      } catch (error) {
        this.options.logger?.warn(`live: a notification for layer ${batch.record.layerId} in ${batch.record.tenant} could not be applied (${error instanceof Error ? error.message : String(error)})`)
      }
    }
  }

  /**
   * Applies what a notification named as the broker states it: the named entities are read back
   * (one request per 50), so a forged notification with the right token can add no station and
   * set no value the broker does not hold; a named entity the broker no longer returns is removed.
   */
  private async apply(record: LiveRecord, notified: NormalizedEntity[], notifiedRemovals: string[]): Promise<LiveEvent | undefined> {
    const layer = await this.options.layerSpec(record.layerId)
    if (!layer) return undefined
    const ids = [...new Set([...notified.map((entity) => entity.id), ...notifiedRemovals])]
    const entities = await this.options.features.entitiesByIds(layer, record.tenant || undefined, ids)
    const held = new Set(entities.map((entity) => entity.id))
    const removedIds = ids.filter((id) => !held.has(id))
    const now = new Date(this.options.now?.() ?? Date.now())
    const features = entities.map((entity) => notifiedFeature(entity, layer.attributes))
    const applied = await this.options.features.applyLive(layer, record.tenant || undefined, { upserted: features, removed: removedIds })
    // Nothing cached here: no one has loaded the layer lately, pages that have it still get the change.
    const upserted = applied ? applied.upserted : features.filter((feature) => feature.geometry).map((feature) => withAlert(feature, layer.alertRules, now, undefined, layer.display))
    const removed = applied ? applied.removed : removedIds
    if (upserted.length === 0 && removed.length === 0) return undefined
    const count = applied?.body.meta.count ?? 0
    return this.options.hub.publishChange({ layerId: record.layerId, tenant: record.tenant, upserted, removed, tiles: count > this.options.tileThreshold, at: now.toISOString() })
  }

  /** Makes the subscription of a (layer, city) someone started watching; a failure leaves the layer on polling. */
  async watch(target: LiveTarget): Promise<LiveRecord | undefined> {
    try {
      return await this.options.subscriptions.ensure(target)
    } catch (error) {
      this.options.logger?.warn(`live: no subscription for layer ${target.layer.id} in ${target.tenant} (${error instanceof Error ? error.message : String(error)}); it stays on polling`)
      return undefined
    }
  }

  /** Whether pages of this (layer, city) get changes pushed ('live') or must poll, and whether the broker answers. */
  async modeOf(layerId: string | number, tenant: string): Promise<{ mode: 'live' | 'polling'; brokerDownSince?: string }> {
    const brokerDownSince = await this.options.subscriptions.brokerDownSince()
    if (brokerDownSince) return { mode: 'polling', brokerDownSince }
    const record = await this.options.subscriptions.records().then((records) => records.find((candidate) => candidate.key === LiveSubscriptions.keyOf(layerId, tenant)))
    return { mode: record?.mode === 'live' ? 'live' : 'polling' }
  }

  async status(): Promise<LiveStatus> {
    const records = await this.options.subscriptions.records()
    const brokerDownSince = await this.options.subscriptions.brokerDownSince()
    const details = records.map(({ layerId, tenant, mode, reason }) =>
      brokerDownSince ? { layerId, tenant, mode: 'polling' as const, reason: `${BROKER_DOWN} (since ${brokerDownSince})` } : { layerId, tenant, mode, ...(reason && { reason }) },
    )
    const subscribed = details.filter((detail) => detail.mode === 'live').length
    const atBroker = records.filter((record) => record.atBroker).length
    return { layers: records.length, subscribed, polling: records.length - subscribed, atBroker, ...(brokerDownSince && { brokerDownSince }), details }
  }

  /**
   * Renews and checks the subscriptions; with the lock held for the period, one replica does it per
   * period. A registry that lost its records (Redis restarted empty: the broker's subscriptions
   * are unknown, their tokens refused) is rebuilt first by `reconcile`: our old subscriptions
   * deleted, new ones made.
   */
  async maintain(periodMs: number, reconcile?: () => Promise<unknown>): Promise<boolean> {
    const lock = await this.options.lock('live-maintenance', Math.max(1_000, periodMs - 1_000))
    if (!lock) return false
    // Not released: the lock lapsing marks the next period.
    // A broker that does not answer would only time out on each record: the probe takes over, and checks when it answers again.
    if (await this.options.subscriptions.brokerDownSince()) return true
    if (reconcile && (await this.options.subscriptions.registryLost())) {
      this.options.logger?.warn('live: the subscription registry was lost (Redis restarted empty?); reconciling with the broker')
      await reconcile()
    }
    const changed = await this.renewAndCheck()
    // The broker may have stopped answering meanwhile, and the probe told every page so: a mode
    // sent now says so too, or it would take the pages' "broker not answering" back.
    const downSince = await this.options.subscriptions.brokerDownSince()
    for (const record of changed) await this.publishModeOf(record, downSince)
    return true
  }

  /** Renews the subscriptions and reads each back (see LiveSubscriptions.check); answers the records whose mode changed. */
  private async renewAndCheck(): Promise<LiveRecord[]> {
    await this.options.subscriptions.renew()
    const delivery = this.options.checkData ? (record: LiveRecord) => this.deliveryOf(record) : undefined
    return this.options.subscriptions.check(delivery)
  }

  private publishModeOf(record: LiveRecord, brokerDownSince?: string): Promise<void> {
    return this.options.hub.publishMode({ layerId: record.layerId, tenant: record.tenant, mode: brokerDownSince ? 'polling' : record.mode, ...(brokerDownSince && { brokerDownSince }) })
  }

  /**
   * Asks the broker whether it answers, on one or two replicas per period (a lock held half of it). When it
   * stops, every page is told at once (each layer polling, "broker down since"), not at the next
   * check; when it answers again, the subscriptions are renewed and read back (a restarted broker
   * may have lost or paused them) and every page is told its layer's mode.
   */
  async probe(periodMs: number, timeoutMs: number): Promise<boolean> {
    // Held half a period: a tick whose lock came late (a busy event loop) must not make the next
    // tick skip its probe, which would double the time pages wait to hear the broker died.
    const lock = await this.options.lock('live-probe', Math.max(500, periodMs / 2))
    if (!lock) return false
    const { downSince, changed } = await this.options.subscriptions.probe(timeoutMs)
    if (!changed) return true
    if (downSince) this.options.logger?.warn(`live: the broker stopped answering (${downSince}); every layer polls until it answers again`)
    else {
      this.options.logger?.warn('live: the broker answers again; subscriptions renewed and read back')
      await this.renewAndCheck()
    }
    for (const record of await this.options.subscriptions.records()) await this.publishModeOf(record, downSince)
    return true
  }

  /**
   * Whether a subscription the broker reports well really delivers: a notification applied since
   * the last check (the layer's version moved) says yes; otherwise the broker's first entities are
   * compared with the cached layer, and a difference means a change nobody was told of. A layer put
   * on polling that way stays there until a notification arrives again.
   */
  private async deliveryOf(record: LiveRecord): Promise<DeliveryEvidence> {
    const version = await this.options.hub.version(channelOf(record.layerId, record.tenant))
    // The first check of a subscription only notes where its layer stands.
    if (record.checkedVersion === undefined || version !== record.checkedVersion) return { version }
    if (record.mode === 'polling' && record.reason?.startsWith(UNNOTIFIED_CHANGE)) return { reason: record.reason, version }
    const layer = await this.options.layerSpec(record.layerId)
    if (!layer) return { version }
    const graceMs = NOTIFICATION_GRACE_MS + (layer.liveThrottleSeconds ?? 0) * 1000
    const changed = await this.options.features.firstDifference(layer, record.tenant || undefined, { sample: PROBE_SAMPLE, graceMs })
    return { reason: changed ? `${UNNOTIFIED_CHANGE} (${changed})` : undefined, version }
  }

  startMaintenance(periodMs: number, reconcile?: () => Promise<unknown>): void {
    if (this.maintenance) return
    this.maintenance = setInterval(() => {
      this.maintain(periodMs, reconcile).catch((error: unknown) => this.options.logger?.warn(`live: maintenance failed (${error instanceof Error ? error.message : String(error)})`))
    }, periodMs)
    this.maintenance.unref()
  }

  /** Probes the broker every `periodMs`, giving it `timeoutMs` to answer (LIVE_PROBE_SECONDS). */
  startProbe(periodMs: number, timeoutMs = Math.min(2_000, periodMs / 2)): void {
    if (this.probing) return
    this.probing = setInterval(() => {
      this.probe(periodMs, timeoutMs).catch((error: unknown) => this.options.logger?.warn(`live: broker probe failed (${error instanceof Error ? error.message : String(error)})`))
    }, periodMs)
    this.probing.unref()
  }

  stopMaintenance(): void {
    clearInterval(this.maintenance)
    clearInterval(this.probing)
    this.maintenance = undefined
    this.probing = undefined
  }
}

export { channelOf }

/** One layer's (city, mode, reason) rows of a status report. */
export const liveLayerStatus = (status: LiveStatus, layerId: string) =>
  status.details.filter((detail) => detail.layerId === layerId).map(({ tenant, mode, reason }) => ({ tenant, mode, ...(reason && { reason }) }))
