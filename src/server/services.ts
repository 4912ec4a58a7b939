import type { Redis } from 'ioredis'

import { GatewayClient } from '@/ai'
import type { FreshAlerts } from '@/alerts/notices'
import { type Cache, closeRedisClient, createCache, createRedisClient, createRevalidatedTags, type RevalidatedTags, SwrCache, whenReady } from '@/cache'
import { env } from '@/env'
import { LayerFeatureService } from '@/layers/server/features'
import { HistoryService } from '@/layers/server/history'
import { LiveHub, localBus, redisBus } from '@/layers/server/live'
import { LiveLayers } from '@/layers/server/liveLayers'
import { LiveSubscriptions, memoryRegistry, redisRegistry } from '@/layers/server/liveSubscriptions'
import type { LayerSpec } from '@/layers/server/features'
import { createTileService, type TileService } from '@/layers/server/tiles'
import { cachedPageSizeMemory, NgsiClient, SubscriptionClient } from '@/ngsi'
import { createRateLimiter, type RateLimiter } from '@/rate-limit'

/**
 * The composition root: every long-lived object of the process (the Redis connection, the broker
 * and gateway clients, the layer data service, the proxy caches, the rate limiters), made once on
 * first use from the settings. With REDIS_URL set, all caches and limiters share ONE connection.
 *
 * Kept on globalThis, not in module scope: Next bundles the Pages API route (src/pages/api) apart
 * from the App Router code, and both must share one set (one connection, one load per layer).
 */
type Services = {
  redis?: Redis | null
  broker?: NgsiClient
  layers?: LayerFeatureService
  tiles?: TileService
  history?: HistoryService
  gateway?: GatewayClient
  revalidatedTags?: RevalidatedTags
  freshAlertsListener?: (alerts: FreshAlerts) => void
  layerCache?: Cache
  live?: LiveLayers
  proxyCaches: Map<string, SwrCache<unknown>>
  limiters: Map<string, RateLimiter>
}

const SERVICES = Symbol.for('citydash.services')
const processWide = globalThis as { [SERVICES]?: Services }
const services = (): Services => (processWide[SERVICES] ??= { proxyCaches: new Map(), limiters: new Map() })

/** The Redis client name: `CLIENT LIST` shows one connection of this name per process. */
export const redisClientName = () => `${env().REDIS_KEY_PREFIX.replace(/:+$/, '')}:app`

/** The process's one Redis connection, or undefined without REDIS_URL (caches and limits then stay in memory). */
export function redisConnection(): Redis | undefined {
  const all = services()
  if (all.redis === undefined) {
    const url = env().REDIS_URL
    // Each cache and limiter logs an outage itself when its commands fail, and falls back.
    all.redis = url ? createRedisClient(url, { name: redisClientName() }) : null
  }
  return all.redis ?? undefined
}

/** When each Next.js cache tag was last revalidated, kept in Redis for every replica; undefined without REDIS_URL. */
export function revalidatedTags(): RevalidatedTags | undefined {
  const redis = redisConnection()
  if (!redis) return undefined
  return (services().revalidatedTags ??= createRevalidatedTags(redis, `${env().REDIS_KEY_PREFIX}next:revalidated-tags`, console))
}

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
  return (services().layerCache ??= createCache({ redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}cache:` }))
}

/** The layer data service, cached in Redis when REDIS_URL is set, else in memory. */
export function layerFeatures(): LayerFeatureService {
  return (services().layers ??= new LayerFeatureService({
    client: brokerClient(),
    cache: layerCache(),
    onFreshAlerts: (alerts) => services().freshAlertsListener?.(alerts),
  }))
}

/**
 * Live layers (broker subscriptions → cached layers → streams), shared across replicas through
 * Redis when set: its pub/sub takes a second connection (`<prefix>:live`), opened on first use.
 * `layerSpec` reads a layer as stored (the entry room passes it: this room reads no database), and
 * `layerWanted` says, read fresh, whether it is public or (`watched`) may be watched by members.
 */
export function liveLayers(
  layerSpec: (layerId: string) => Promise<LayerSpec | undefined>,
  layerWanted: (layerId: string, watched: boolean) => Promise<boolean>,
): LiveLayers {
  const all = services()
  if (all.live) return all.live
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
  all.live = new LiveLayers({ hub, subscriptions, features, layerSpec, tileThreshold: settings.LAYER_TILES_THRESHOLD, lock, checkData: settings.LIVE_DATA_CHECK, logger: console })
  return all.live
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

/** One gateway client, so its limit of requests in flight holds across all requests. */
export function gatewayClient(): GatewayClient {
  const settings = env()
  return (services().gateway ??= new GatewayClient({
    url: settings.GATEWAY_URL,
    apiKey: settings.GATEWAY_API_KEY,
    model: settings.GATEWAY_MODEL,
    fallbackModels: settings.GATEWAY_FALLBACK_MODELS,
    // The gateway attributes requests to the site: the public address unless another is set.
    siteUrl: settings.GATEWAY_SITE_URL ?? settings.PUBLIC_SERVER_URL,
    appName: settings.GATEWAY_APP_NAME,
  }))
}

/** A stale-while-revalidate cache for one proxy's answers, shared by replicas when Redis is set. */
export function proxyCache<V>(name: string, freshSeconds: number): SwrCache<V> {
  const caches = services().proxyCaches
  let cache = caches.get(name)
  if (!cache) {
    cache = new SwrCache<unknown>({
      cache: createCache({ redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}${name}:` }),
      freshSeconds,
      staleSeconds: freshSeconds,
      // Upstream failures (quota, outages) are answered from the cache for a while rather than retried per request.
      errorCooldownSeconds: 30,
    })
    caches.set(name, cache)
  }
  return cache as SwrCache<V>
}

/** The limiter named `name` (its Redis keys are `<REDIS_KEY_PREFIX>rl:<name>:<client>`), counted across replicas when Redis is set. */
export function rateLimiter(name: string, budget: { points: number; durationSeconds: number }): RateLimiter {
  const limiters = services().limiters
  let limiter = limiters.get(name)
  if (!limiter) {
    limiter = createRateLimiter({ ...budget, redis: redisConnection(), keyPrefix: `${env().REDIS_KEY_PREFIX}rl:${name}` })
    limiters.set(name, limiter)
  }
  return limiter
}
