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
}

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
    infoEndpoints: () => ({ '/actuator/health': { status: 'UP' } }),
  },
}
