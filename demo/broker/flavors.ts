// The observable differences between Orion-LD, Scorpio and Stellio that trip dashboards up
// (see README of the NGSI-LD reference material): paging limits, next links, error
// spellings, temporal support and version/health endpoints.

import { BrokerError, errorTypes } from './problems'

export const flavorNames = ['orion-ld', 'scorpio', 'stellio'] as const
export type Flavor = (typeof flavorNames)[number]

export interface FlavorProfile {
  name: Flavor
  defaultLimit: number
  maxLimit: number
  /** What a `limit` above `maxLimit` answers. */
  limitTooHigh(limit: number): BrokerError
  unknownTenant(tenant: string): BrokerError
  /** `next` only (Scorpio) or `next` and `prev` with a `type` (Stellio); Orion-LD sends none. */
  pageLinks: 'none' | 'next' | 'next-prev-typed'
  /** Orion-LD needs a separate Mintaka service for the temporal API. */
  temporalOnSamePort: boolean
  /** Stellio answers 206 + Content-Range above this many instances per attribute. */
  temporalInstanceLimit?: number
  /** Version and health endpoints: path → body. */
  infoEndpoints(startedAt: Date, now: Date): Record<string, unknown>
  /** How subscriptions and notifications behave (shared/ngsi-ld/SUBSCRIPTIONS.md §2). */
  notifications: NotificationProfile
}

export interface NotificationProfile {
  subscriptionId(): string
  notificationId(): string
  /** `notifiedAt` as the broker writes it: ms, 6-digit µs, or µs with trailing zeros dropped. */
  notifiedAt(ms: number): string
  /** Orion-LD calls the endpoint with `?subscriptionId=<id>` appended. */
  appendsSubscriptionId: boolean
  /** Stellio sends one notification per entity; the others one per request. */
  onePerEntity: boolean
  /** Scorpio pretty-prints notification bodies. */
  pretty: boolean
  /** Whether an answer counts as delivered. */
  delivered(status: number, hasContentLength: boolean): boolean
  /** Orion-LD and Stellio count every attempt in timesSent; Scorpio only successes. */
  timesSentCountsFailures: boolean
  /** Only Scorpio reports `timesFailed`; Orion-LD and Stellio report `notification.status`. */
  reportsTimesFailed: boolean
  reportsNotificationStatus: boolean
  /** Orion-LD pauses a subscription after this many consecutive failures. */
  pauseAfterFailures?: number
  /** Orion-LD and Stellio drop changes inside the throttling window; Scorpio sends them anyway. */
  throttlingDrops: boolean
  /** Scorpio and Stellio refuse a non-integer throttling. */
  integerThrottling: boolean
  pastExpiryRefused: boolean
  /** Scorpio keeps saying `active` after expiry. */
  reportsExpired: boolean
  /** Members the broker refuses: member → [status, reason]. */
  refusedMembers: Record<string, [number, string]>
  unknownMembers: 'refuse' | 'ignore'
  /** Triggers when the subscription names none; Orion-LD supports none and notifies every change. */
  defaultTriggers: readonly string[] | 'all'
  /** Scorpio and Stellio replace the whole `notification` member on PATCH; Orion-LD merges it. */
  patchReplacesNotification: boolean
  /** Time allowed to the endpoint (ms), unless `endpoint.timeout` says otherwise. */
  timeoutMs: number
}

const uuid = () => crypto.randomUUID()
const microseconds = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '000Z')
const trimmedMicroseconds = (ms: number) => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z')
const allTriggers = ['entityCreated', 'entityUpdated', 'entityDeleted', 'attributeCreated', 'attributeUpdated', 'attributeDeleted'] as const
export const notificationTriggers: readonly string[] = allTriggers

const tooManyResults = (limit: number, max: number) =>
  new BrokerError(403, errorTypes.tooManyResults, 'Too many results', `limit ${limit} is above the maximum of ${max}`)

const tenantError = (type: string, title: string) => (tenant: string) => new BrokerError(404, type, title, `tenant '${tenant}' does not exist`)

function uptime(startedAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000))
  return `${Math.floor(seconds / 86_400)} d, ${Math.floor(seconds / 3600) % 24} h, ${Math.floor(seconds / 60) % 60} m, ${seconds % 60} s`
}

export const flavors: Record<Flavor, FlavorProfile> = {
  'orion-ld': {
    name: 'orion-ld',
    defaultLimit: 20,
    maxLimit: 1000,
    limitTooHigh: (limit) => new BrokerError(400, errorTypes.badRequestData, 'Invalid value for URI parameter /limit/', `${limit} is above the maximum of 1000`),
    unknownTenant: tenantError(errorTypes.nonExistingTenant, 'No such tenant'),
    pageLinks: 'none',
    temporalOnSamePort: false,
    notifications: {
      subscriptionId: () => `urn:ngsi-ld:Subscription:${uuid()}`,
      notificationId: () => `urn:ngsi-ld:Notification:${uuid()}`,
      notifiedAt: (ms) => new Date(ms).toISOString(),
      appendsSubscriptionId: true,
      onePerEntity: false,
      pretty: false,
      delivered: (status, hasContentLength) => status === 204 || (status >= 200 && status < 300 && hasContentLength),
      timesSentCountsFailures: true,
      reportsTimesFailed: false,
      reportsNotificationStatus: true,
      pauseAfterFailures: 3,
      throttlingDrops: true,
      integerThrottling: false,
      pastExpiryRefused: true,
      reportsExpired: true,
      refusedMembers: {
        notificationTrigger: [501, 'OperationNotSupported'],
        jsonldContext: [400, 'Unknown field for subscription'],
        csf: [501, 'OperationNotSupported'],
        temporalQ: [501, 'OperationNotSupported'],
      },
      unknownMembers: 'refuse',
      defaultTriggers: 'all',
      patchReplacesNotification: false,
      timeoutMs: 5000,
    },
    infoEndpoints: (startedAt, now) => ({
      '/version': {
        'orionld version': '1.6.0',
        'orion version': '1.15.0-next',
        uptime: uptime(startedAt, now),
        git_hash: 'demo',
        compile_time: 'demo broker',
        compiled_by: 'city-dashboard',
        compiled_in: '',
        release_date: 'demo broker',
        doc: 'https://fiware-orion.readthedocs.org/en/master/',
      },
      '/ngsi-ld/v1/info/sourceIdentity': {
        id: 'urn:ngsi-ld:ContextSourceIdentity:demo-orion-ld',
        type: 'ContextSourceIdentity',
        contextSourceAlias: 'demo-broker',
        contextSourceUptime: `PT${Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000))}S`,
        contextSourceTimeAt: now.toISOString(),
        contextSourceExtras: { broker: 'Orion-LD (demo)', version: '1.6.0' },
      },
    }),
  },
  scorpio: {
    name: 'scorpio',
    defaultLimit: 50,
    maxLimit: 1000,
    limitTooHigh: (limit) => tooManyResults(limit, 1000),
    unknownTenant: tenantError(errorTypes.tenantNotFound, 'Tenant not found'),
    pageLinks: 'next',
    temporalOnSamePort: true,
    notifications: {
      subscriptionId: () => `urn:${uuid()}`,
      notificationId: () => `notification:${BigInt.asIntN(64, BigInt(Math.floor(Math.random() * 2 ** 53)) * 1024n)}`,
      notifiedAt: microseconds,
      appendsSubscriptionId: false,
      onePerEntity: false,
      pretty: true,
      delivered: (status) => status >= 200 && status < 300,
      timesSentCountsFailures: false,
      reportsTimesFailed: true,
      reportsNotificationStatus: false,
      throttlingDrops: false,
      integerThrottling: true,
      pastExpiryRefused: false,
      reportsExpired: false,
      refusedMembers: {},
      unknownMembers: 'ignore',
      defaultTriggers: ['entityCreated', 'entityUpdated', 'attributeCreated', 'attributeUpdated'],
      patchReplacesNotification: true,
      timeoutMs: 5000,
    },
    infoEndpoints: () => ({
      '/q/health': { status: 'UP', checks: [{ name: 'Database connections health check', status: 'UP' }] },
      '/q/info': { build: { group: 'eu.neclab.ngsildbroker', artifact: 'scorpio-demo', version: '5.0.5', name: 'Scorpio (demo)' } },
    }),
  },
  stellio: {
    name: 'stellio',
    defaultLimit: 30,
    maxLimit: 100,
    limitTooHigh: (limit) => tooManyResults(limit, 100),
    unknownTenant: tenantError(errorTypes.nonexistentTenant, 'Tenant not found'),
    pageLinks: 'next-prev-typed',
    temporalOnSamePort: true,
    temporalInstanceLimit: 10_000,
    notifications: {
      subscriptionId: () => `urn:ngsi-ld:Subscription:${uuid()}`,
      notificationId: () => `urn:ngsi-ld:Notification:${uuid()}`,
      notifiedAt: trimmedMicroseconds,
      appendsSubscriptionId: false,
      onePerEntity: true,
      pretty: false,
      delivered: (status) => status === 200,
      timesSentCountsFailures: true,
      reportsTimesFailed: false,
      reportsNotificationStatus: true,
      throttlingDrops: true,
      integerThrottling: true,
      pastExpiryRefused: true,
      reportsExpired: true,
      refusedMembers: { csf: [501, 'OperationNotSupported'], temporalQ: [501, 'OperationNotSupported'] },
      unknownMembers: 'refuse',
      defaultTriggers: ['attributeCreated', 'attributeUpdated'],
      patchReplacesNotification: true,
      timeoutMs: 30_000,
    },
    infoEndpoints: () => ({ '/actuator/health': { status: 'UP' } }),
  },
}
