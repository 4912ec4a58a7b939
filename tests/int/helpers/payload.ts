import path from 'node:path'

import type { Payload, SanitizedConfig } from 'payload'
import { expect, inject, vi } from 'vitest'

import { startDemoBroker, type DemoBroker, type DemoBrokerOptions } from '../../../demo/broker/server'
import { startFakeGeocoding, type FakeGeocoding } from '../../../demo/services/geocoding'
import { startFakeWeather, type FakeWeather } from '../../../demo/services/weather'
import { type Role, signedInRoles } from '../../helpers/accounts'
import { ownDatabase } from '../../helpers/migratedDatabases'
import { mailSettings, type SmtpCatcher, startSmtpCatcher } from '../../helpers/smtp'
import { type CountingProxy, startCountingProxy } from './countingProxy'
import { type AppRoute, appRoutes, freePort, startHttpServer } from './http'

/** The demo broker's two cities, as Site settings lists them. */
export const TEST_CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 },
  { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13 },
]

declare const _payload: Payload
/** What an update of Site settings takes (the Local API's deep partial of the global). */
export type SiteSettingsData = Parameters<typeof _payload.updateGlobal<'site-settings', never>>[0]['data']

export type PayloadOptions = {
  /** The project's test database, which its files share (the default), or an empty one of this file's own, of its dialect, that `close` drops. */
  database?: 'shared' | 'empty'
  /** Settings the config and env() read when first imported: set before that (undefined unsets one), restored by `close`. */
  env?: Record<string, string | undefined>
  /** Email on: mail from this sender (EMAIL_FROM) goes to a real SMTP server started here (`smtp`). Off unless given. */
  mailFrom?: string
  /** A demo broker started here as NGSI_LD_BROKER_URL, with no default tenant; `behindProxy`: reached through a counting proxy (`proxy`). */
  broker?: DemoBrokerOptions & { behindProxy?: boolean }
  /** The weather and geocoding stand-ins started here, with these API keys, as WEATHER_API_* and GEOCODING_API_*. */
  upstreams?: { weatherKey: string; geocodingKey: string }
  /** Site settings written once Payload runs (a project's files share its database). */
  site?: SiteSettingsData
}

export interface StartedPayload {
  payload: Payload
  config: SanitizedConfig
  /** The SMTP server mail goes to (`mailFrom`). */
  readonly smtp: SmtpCatcher
  /** The demo broker (`broker`). */
  readonly broker: DemoBroker
  /** The counting proxy in front of it (`broker.behindProxy`). */
  readonly proxy: CountingProxy
  /** The weather stand-in (`upstreams`). */
  readonly weather: FakeWeather
  /** The geocoding stand-in (`upstreams`). */
  readonly geocoding: FakeGeocoding
  /** Stops Payload and what was started with it, and restores the settings. */
  close(): Promise<void>
}

/** What an option started, or a failure naming the option that starts it. */
function startedBy<T>(service: T | undefined, option: string): T {
  if (service === undefined) throw new Error(`not started: pass \`${option}\` to start it`)
  return service
}

/** The service, closed once however often `close` is called (a test may stop one itself, to see it gone). */
export function closedOnce<T extends { close(): Promise<void> }>(service: T): T {
  const close = service.close.bind(service)
  let closing: Promise<void> | undefined
  service.close = () => (closing ??= close())
  return service
}

/**
 * Payload on the test database, with the services `options` name started first (a demo broker, an
 * SMTP server, the upstream stand-ins) and their settings: the config and env() read the environment
 * when imported, so it is set first and the config imported afterwards.
 */
export async function startPayload(options: PayloadOptions = {}): Promise<StartedPayload> {
  const { mailFrom, upstreams } = options
  const { behindProxy = false, ...brokerOptions } = options.broker ?? {}
  const smtp = mailFrom === undefined ? undefined : closedOnce(await startSmtpCatcher())
  const broker = options.broker && closedOnce(await startDemoBroker({ port: 0, ...brokerOptions }))
  const proxy = broker && behindProxy ? closedOnce(await startCountingProxy(broker.url)) : undefined
  const weather = upstreams && closedOnce(await startFakeWeather({ apiKey: upstreams.weatherKey }))
  const geocoding = upstreams && closedOnce(await startFakeGeocoding({ apiKey: upstreams.geocodingKey }))
  const shared = inject('databaseUri')
  const { database = 'shared' } = options
  const dialect = shared.startsWith('file:') ? 'sqlite' : 'postgres'
  const own = database === 'empty' ? await ownDatabase(dialect, 'empty', { migrated: false }) : undefined
  const env = {
    DATABASE_URI: own?.uri ?? shared,
    ...(smtp && mailSettings(smtp, mailFrom!)),
    ...(broker && { NGSI_LD_BROKER_URL: (proxy ?? broker).url, NGSI_LD_TENANT: '' }),
    ...(upstreams && {
      WEATHER_API_URL: weather!.url,
      WEATHER_API_KEY: upstreams.weatherKey,
      GEOCODING_API_URL: geocoding!.url,
      GEOCODING_API_KEY: upstreams.geocodingKey,
    }),
    ...options.env,
  }
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const { default: configPromise } = await import('@payload-config')
  const { getPayload } = await import('payload')
  const config = await configPromise
  const payload = await getPayload({ config })
  if (options.site) await payload.updateGlobal({ slug: 'site-settings', data: options.site, overrideAccess: true })
  return {
    payload,
    config,
    get smtp() {
      return startedBy(smtp, 'mailFrom')
    },
    get broker() {
      return startedBy(broker, 'broker')
    },
    get proxy() {
      return startedBy(proxy, 'broker: { behindProxy: true }')
    },
    get weather() {
      return startedBy(weather, 'upstreams')
    },
    get geocoding() {
      return startedBy(geocoding, 'upstreams')
    },
    async close() {
      await payload.destroy()
      // Payload leaves its PostgreSQL pool open, and dropping a database of this file's own (FORCE) cuts its connections: their errors are expected, not uncaught.
      if (own) (payload.db as unknown as { pool?: { on(event: 'error', listener: () => void): void } }).pool?.on('error', () => {})
      await Promise.all([smtp?.close(), proxy?.close(), broker?.close(), weather?.close(), geocoding?.close(), own?.drop()])
      vi.unstubAllEnvs()
    },
  }
}

export type PayloadApiOptions = PayloadOptions & {
  /** The app's own routes, by path, mounted beside Payload's REST API and GraphQL. */
  routes?: readonly AppRoute[]
  /** The broker's notifications reach this server: it listens on a port NGSI_LD_NOTIFY_URL names. */
  notified?: boolean
  /** Accounts of these roles made for this file (Local API) and signed in over REST: `tokens`, `ids`. */
  roles?: readonly Role[]
}

export interface PayloadApi extends StartedPayload {
  baseUrl: string
  /** The session tokens of the accounts made for `roles`, by role (only those). */
  tokens: Record<Role, string>
  ids: Record<Role, number | string>
}

let accountTags = 0
/** A tag no other file's accounts have (the files share a database): this file's name, the process and the time. */
function accountTag() {
  const file = path.basename(expect.getState().testPath ?? 'int').replace(/\.test\.ts$/, '')
  return `${file}-${process.pid}-${Date.now()}-${++accountTags}`
}

/**
 * Payload as above behind a real HTTP server: its REST API, GraphQL at /api/graphql as the app mounts
 * it, and the app's `routes`; with the accounts of `roles` signed in.
 */
export async function startPayloadApi({ routes = [], notified = false, roles = [], ...options }: PayloadApiOptions = {}): Promise<PayloadApi> {
  const port = notified ? await freePort() : undefined
  const started = await startPayload(port ? { ...options, env: { NGSI_LD_NOTIFY_URL: `http://127.0.0.1:${port}`, ...options.env } } : options)
  const mounted = await appRoutes(['/api/graphql', ...routes])
  const server = await startHttpServer(started.config, mounted.routes, mounted.nodeRoutes, { port })
  const { tokens, ids } = await signedInRoles(started.payload, server.url, accountTag(), roles)
  const closePayload = started.close
  return Object.assign(started, {
    baseUrl: server.url,
    tokens,
    ids,
    async close() {
      await server.close()
      await closePayload()
    },
  })
}
