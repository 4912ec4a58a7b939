// The layer wing's long-lived objects: the broker client, the layer data, tiles, history and live
// services, made once per process on first use from the settings. Not 'server-only': Payload's
// hooks and payload.config.ts (also run by the CLI) call it too.

import type { Payload } from 'payload'

import type { FreshAlerts } from '@/alerts/notices'
import { type Cache, closeRedisClient, createCache, createRedisClient, whenReady } from '@/cache'
import { env } from '@/env'
import { cachedPageSizeMemory, NgsiClient, SubscriptionClient } from '@/ngsi'
import { processWide, redisConnection } from '@/server/services'

import { LayerFeatureService, type LayerSpec } from '../server/features'
import { HistoryService } from '../server/history'
import { LiveHub, localBus, redisBus } from '../server/live'
import { LiveLayers } from '../server/liveLayers'
import { LiveSubscriptions, memoryRegistry, redisRegistry } from '../server/liveSubscriptions'
import { toLayerSpec } from '../server/spec'
import { createTileService, type TileService } from '../server/tiles'
import { storedLayer } from './records'

type LayerServices = {
  broker?: NgsiClient
  cache?: Cache
  features?: LayerFeatureService
  tiles?: TileService
  history?: HistoryService
  live?: LiveLayers
  freshAlertsListener?: (alerts: FreshAlerts) => void
  /** How the live layers reach this process's Payload: the latest caller's way (every caller names the same instance). */
  payloadOf?: () => Promise<Payload>
}

const services = () => processWide<LayerServices>('layers', () => ({}))

/** The one NGSI-LD client of this process (it remembers each broker's accepted page size). */
export function brokerClient(): NgsiClient {
  const settings = env()
  return (services().broker ??= new NgsiClient({
    brokerUrl: settings.NGSI_LD_BROKER_URL,
    temporalUrl: settings.NGSI_LD_TEMPORAL_URL,
    tenant: settings.NGSI_LD_TENANT,
    contextUrl: settings.NGSI_LD_CONTEXT_URL,
    maxPageSize: settings.NGSI_LD_PAGE_SIZE,
    pageConcurrency: settings.NGSI_LD_PAGE_CONCURRENCY,
    // A refused page size is learned once for every replica and restart (Redis), not per process.
    pageSizeMemory: cachedPageSizeMemory(createCache({ redis: redisConnection(), keyPrefix: `${settings.REDIS_KEY_PREFIX}ngsi:` })),
    // Each layer caps itself (maxFeatures, up to 500,000); the client's own default cap is 50,000.
    maxEntities: 500_000,
  }))
}

/**
 * Who hears the alerts of each fresh layer load (polled or pushed): the alert notices
 * (payload.config.ts onInit sets it, so every process that runs Payload has it). One listener.
 */
export function listenForFreshAlerts(listener: (alerts: FreshAlerts) => void) {
  services().freshAlertsListener = listener
}

/** The store of layer bodies (and their locks): Redis when REDIS_URL is set, else memory. */
function layerCache(): Cache {
  return (services().cache ??= createCache({ redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}cache:` }))
}

/** The layer data service, cached in Redis when REDIS_URL is set, else in memory. */
export function layerFeatures(): LayerFeatureService {
  return (services().features ??= new LayerFeatureService({
    client: brokerClient(),
    cache: layerCache(),
    onFreshAlerts: (alerts) => services().freshAlertsListener?.(alerts),
  }))
}

/** The tile indexes of large layers, in this process's memory (rebuilt from the shared layer cache when needed). */
export function layerTiles(): TileService {
  return (services().tiles ??= createTileService({ maxPoints: env().LAYER_TILES_MAX_POINTS }))
}

/** The layer history service (the temporal API), cached like the layer data. */
export function layerHistory(): HistoryService {
  return (services().history ??= new HistoryService({
    client: brokerClient(),
    cache: createCache({ redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}cache:` }),
    features: layerFeatures(),
  }))
}

/**
 * Live layers (broker subscriptions → cached layers → streams), shared across replicas through
 * Redis when set: its pub/sub takes a second connection (`<prefix>:live`), opened on first use.
 * `payloadOf` is how the caller reaches this process's Payload (a route's client, a hook's
 * `req.payload`): the layers are read through it, as stored, by the rules below.
 */
export function liveLayers(payloadOf: () => Promise<Payload>): LiveLayers {
  const all = services()
  all.payloadOf = payloadOf
  return (all.live ??= makeLiveLayers({
    layerSpec: async (layerId) => {
      const layer = await storedLayer(await all.payloadOf!(), layerId)
      return layer ? toLayerSpec(layer) : undefined
    },
    // Read fresh: a layer republished a moment ago keeps its subscriptions.
    layerWanted: async (layerId, watched) => {
      const payload = await all.payloadOf!()
      const { docs } = await payload.find({ collection: 'map-layers', where: { id: { equals: layerId } }, limit: 1, depth: 0, pagination: false, overrideAccess: true, select: { public: true } })
      return Boolean(docs[0] && (docs[0].public || watched))
    },
  }))
}

function makeLiveLayers({
  layerSpec,
  layerWanted,
}: {
  layerSpec: (layerId: string) => Promise<LayerSpec | undefined>
  layerWanted: (layerId: string, watched: boolean) => Promise<boolean>
}): LiveLayers {
  const settings = env()
  const redis = redisConnection()
  const keyPrefix = settings.REDIS_KEY_PREFIX
  let subscriber: ReturnType<typeof createRedisClient> | undefined
  const bus = redis
    ? redisBus({
        redis,
        ready: () => whenReady(redis, 1_000),
        keyPrefix,
        subscriber: async () => {
          subscriber = createRedisClient(settings.REDIS_URL as string, { name: `${keyPrefix.replace(/:+$/, '')}:live`, connectTimeoutMs: 2_000 })
          await whenReady(subscriber, 2_000)
          return subscriber
        },
        closeSubscriber: async () => {
          if (subscriber) await closeRedisClient(subscriber)
        },
      })
    : localBus()
  const cache = layerCache()
  const lock = (name: string, ttlMs: number) => cache.tryLock(`live:${name}`, ttlMs)
  const features = layerFeatures()
  const hub = new LiveHub({
    bus,
    // Another replica changed a layer: this one's one-second copy must not hide it.
    onMessage: (message) => message.kind === 'change' && features.forgetHot(message.event.layerId, message.event.tenant || undefined),
  })
  const subscriptions = new LiveSubscriptions({
    client: new SubscriptionClient({ brokerUrl: settings.NGSI_LD_BROKER_URL, contextUrl: settings.NGSI_LD_CONTEXT_URL }),
    registry: redis ? redisRegistry(redis, keyPrefix, () => whenReady(redis, 1_000)) : memoryRegistry(),
    lock,
    notifyUrl: settings.NGSI_LD_NOTIFY_URL ?? settings.PUBLIC_SERVER_URL,
    namePrefix: `${keyPrefix.replace(/:+$/, '')}`,
    wanted: layerWanted,
    logger: console,
  })
  return new LiveLayers({ hub, subscriptions, features, layerSpec, tileThreshold: settings.LAYER_TILES_THRESHOLD, lock, checkData: settings.LIVE_DATA_CHECK, logger: console })
}
