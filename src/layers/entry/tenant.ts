import 'server-only'

import type { Payload } from 'payload'

import { env } from '@/env'
import { DEFAULT_LOCALE } from '@/i18n/locales'
import { tenantSchema } from '@/ngsi'
import type { MapLayer } from '@/payload-types'
import { HttpError } from '@/server/errors'
import { type City, cityNamed, defaultTenant, siteCities, timeZoneOfCity } from '@/site/cities'
import { payloadClient } from '@/site/payload'

import { cityOfRead } from '../shared/city'
import type { DashboardCity } from '../shared/types'

/**
 * THE tenant rule: which city (NGSI-LD tenant) a request reads.
 * - A layer bound to a city (its source tenant) always reads that city (`cityOfRead`).
 * - Otherwise the city the reader asked for (`?city=`, a question's city), which must be one of
 *   the site's cities (Site settings → Cities): anything else is a 400.
 * - Otherwise a page reads its own city, else the site's first; a data route the broker's default
 *   tenant (NGSI_LD_TENANT).
 * The site's cities themselves (list, default, time zone) are src/site/cities.ts's.
 */

/** The `city` a caller may name: a tenant's syntax; `knownCity` then checks it is the site's. */
export const citySchema = tenantSchema

/** The site's cities (src/site/cities.ts), through the caller's Payload or the process's. */
export const citiesNow = async (payload?: Payload, options?: { fresh?: boolean }) => siteCities(payload ?? (await payloadClient()), options)

/**
 * The site's city named `tenant`; a 400 for a city the site does not list. A name the remembered
 * list lacks is looked up once more: a city an admin has just added is known at once.
 */
export async function knownCity(tenant: string, payload?: Payload): Promise<City> {
  const city = cityNamed(await citiesNow(payload), tenant) ?? cityNamed(await citiesNow(payload, { fresh: true }), tenant)
  if (!city) throw new HttpError(400, `Unknown city "${tenant}"`)
  return city
}

/** A page's city: its own, else the site's first, else the broker's default tenant. */
export const pageCity = (page: { tenant?: string | null }, cities: readonly City[]): string => page.tenant || defaultTenant(cities)

/** The tenant a layer data route reads `layer` for, given the `city` the caller asked for (if any). */
export async function routeTenant(layer: MapLayer, asked: string | undefined): Promise<string | undefined> {
  const bound = layer.source?.tenant
  const city = !bound && asked ? (await knownCity(asked)).tenant : undefined
  return cityOfRead(bound, city, env().NGSI_LD_TENANT)
}

/** The cities as a dashboard page carries them to the browser. */
export const dashboardCities = (cities: readonly City[]): DashboardCity[] =>
  cities.map(({ name, tenant, latitude, longitude, zoom, basemap, locale, timeZone }) => ({
    name,
    tenant,
    latitude,
    longitude,
    zoom: zoom ?? 12,
    basemap: basemap || undefined,
    locale: locale ?? DEFAULT_LOCALE,
    timeZone: timeZoneOfCity({ timeZone }),
  }))
