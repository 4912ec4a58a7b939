import type { Payload, PayloadRequest } from 'payload'

import { env } from '@/env'
import { DEFAULT_TIME_ZONE } from '@/i18n/timeZone'
import type { SiteSetting } from '@/payload-types'

import { readGlobal } from './globals'

// THE home of "the site's cities" (Site settings → Cities, NGSI-LD tenants): the list, the
// default, a city's time zone and the tenant read when nobody names a city. Which city a request
// reads is the tenant rule built on it (src/layers/entry/tenant.ts).

export type City = NonNullable<SiteSetting['cities']>[number]

/** What a citizen form offers to pick. */
export type CityChoice = Pick<City, 'name' | 'tenant'>

/** The cities of a Site settings document, in their order: the first is the site's default. */
export const citiesOf = (settings: Pick<SiteSetting, 'cities'> | null | undefined): City[] => settings?.cities ?? []

export const tenantsOf = (cities: readonly City[]): string[] => cities.map((city) => city.tenant)

export const choicesOf = (cities: readonly City[]): CityChoice[] => cities.map(({ name, tenant }) => ({ name, tenant }))

/** The city `tenant` names among `cities`; undefined when it names none (or nothing is named). */
export const cityNamed = (cities: readonly City[], tenant: string | null | undefined): City | undefined =>
  tenant ? cities.find((city) => city.tenant === tenant) : undefined

/** The city `tenant` names, else the site's default (its first). */
export const cityOrDefault = (cities: readonly City[], tenant: string | null | undefined): City | undefined => cityNamed(cities, tenant) ?? cities[0]

/** The tenant read when neither the page nor the reader names a city: the site's first city, else the broker's default tenant (NGSI_LD_TENANT). */
export const defaultTenant = (cities: readonly City[]): string => cities[0]?.tenant || env().NGSI_LD_TENANT || ''

/** The IANA time zone a city's times are shown in, else DEFAULT_TIME_ZONE. */
export const timeZoneOfCity = (city: Pick<City, 'timeZone'> | undefined): string => city?.timeZone || DEFAULT_TIME_ZONE

// The city list changes rarely; ten seconds of memory spares a read per layer request.
let memo: { at: number; cities: City[] } | undefined

/** The site's cities, remembered ten seconds. `fresh`: read them again now. */
export async function siteCities(payload: Payload, { fresh = false }: { fresh?: boolean } = {}): Promise<City[]> {
  if (!fresh && memo && Date.now() - memo.at < 10_000) return memo.cities
  memo = { at: Date.now(), cities: citiesOf(await readGlobal(payload, 'site-settings')) }
  return memo.cities
}

/** The tenants of Site settings → Cities, read now in the request's transaction (a save must see a city added a moment ago). */
export async function configuredTenants(req: PayloadRequest): Promise<string[]> {
  return tenantsOf(citiesOf(await readGlobal(req.payload, 'site-settings', { req })))
}
