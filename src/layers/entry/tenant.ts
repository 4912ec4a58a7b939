import 'server-only'

import type { Payload } from 'payload'

import { env } from '@/env'
import { tenantSchema } from '@/ngsi'
import type { MapLayer, SiteSetting } from '@/payload-types'
import { HttpError } from '@/server/errors'
import { readGlobal } from '@/site/globals'
import { payloadClient } from '@/site/payload'

import { cityOfRead } from '../shared/city'
import { DEFAULT_TIME_ZONE } from '@/i18n/timeZone'

/**
 * THE tenant rule: which city (NGSI-LD tenant) a request reads.
 * - A layer bound to a city (its source tenant) always reads that city (`cityOfRead`).
 * - Otherwise the city the reader asked for (`?city=`, a question's city), which must be one of
 *   the site's cities (Site settings → Cities): anything else is a 400.
 * - Otherwise a page reads its own city, else the site's first; a data route the broker's default
 *   tenant (NGSI_LD_TENANT).
 */
export type City = NonNullable<SiteSetting['cities']>[number]

/** The `city` a caller may name: a tenant's syntax; `knownCity` then checks it is the site's. */
export const citySchema = tenantSchema

// The city list changes rarely; ten seconds of memory spares a read per layer request.
let memo: { at: number; cities: City[] } | undefined

/** The site's cities, in their order (the first is the default). `fresh`: read them again now. */
export async function siteCities(payload?: Payload, { fresh = false }: { fresh?: boolean } = {}): Promise<City[]> {
  if (!fresh && memo && Date.now() - memo.at < 10_000) return memo.cities
  const settings = await readGlobal(payload ?? (await payloadClient()), 'site-settings')
  memo = { at: Date.now(), cities: settings.cities ?? [] }
  return memo.cities
}

/**
 * The site's city named `tenant`; a 400 for a city the site does not list. A name the remembered
 * list lacks is looked up once more: a city an admin has just added is known at once.
 */
export async function knownCity(tenant: string, payload?: Payload): Promise<City> {
  const named = (cities: City[]) => cities.find((candidate) => candidate.tenant === tenant)
  const city = named(await siteCities(payload)) ?? named(await siteCities(payload, { fresh: true }))
  if (!city) throw new HttpError(400, `Unknown city "${tenant}"`)
  return city
}

/** A page's city: its own, else the site's first, else the broker's default tenant. */
export const pageCity = (page: { tenant?: string | null }, cities: City[]): string => page.tenant || cities[0]?.tenant || env().NGSI_LD_TENANT || ''

/** The tenant a layer data route reads `layer` for, given the `city` the caller asked for (if any). */
export async function routeTenant(layer: MapLayer, asked: string | undefined): Promise<string | undefined> {
  const bound = layer.source?.tenant
  const city = !bound && asked ? (await knownCity(asked)).tenant : undefined
  return cityOfRead(bound, city, env().NGSI_LD_TENANT)
}

/** The IANA time zone a city's times are shown in (Site settings → Cities), else DEFAULT_TIME_ZONE. */
export const timeZoneOfCity = (city: City | undefined): string => city?.timeZone || DEFAULT_TIME_ZONE

/** The time zone of the site's city `tenant` (the site's first when none is named): for pages outside a dashboard. */
export async function cityTimeZone(tenant: string | undefined): Promise<string> {
  const cities = await siteCities()
  return timeZoneOfCity(tenant ? cities.find((city) => city.tenant === tenant) : cities[0])
}
