// Reading a layer from the server as this page's reader reads it: JSON answers with their ETag
// and data state, entity texts in the reader's language, alert messages in the reader's words.
import { DEFAULT_LOCALE } from '@/i18n/locales'
import type { Feature } from '@/ngsi'

import { alertInLanguage } from '../shared/alertTexts'
import { cityOfRead } from '../shared/city'
import { featuresInLanguage } from '../shared/languages'
import { createPresentation, DEFAULT_TIME_ZONE } from '../shared/presentation'
import type { LayerPreview } from '../shared/preview'
import type { SortDirection } from '../shared/sorting'
import type { DashboardData, DashboardLayer, LayerMeta, LayerSnapshot } from '../shared/types'
import type { LayerState } from './layerState'

/** The time zone of a city of the page (a tenant), else DEFAULT_TIME_ZONE. */
export const timeZoneOf = (data: DashboardData, tenant: string | undefined) => data.cities.find((known) => known.tenant === tenant)?.timeZone ?? DEFAULT_TIME_ZONE

/**
 * A JSON answer, its ETag, and whether the server answered from a copy past its refresh period while
 * it reads the broker again (`X-Data-State: stale`): then the change is there a moment later.
 */
export async function readJsonTagged<T extends object>(
  url: string,
  signal?: AbortSignal,
  ...required: (keyof T)[]
): Promise<{ body: T; etag: string | null; refreshing: boolean }> {
  // no-cache: the browser revalidates with the ETag it holds; an unchanged layer is a 304.
  const response = await fetch(url, { cache: 'no-cache', signal })
  const body = (await response.json()) as Partial<T> & { error?: string }
  if (!response.ok || required.some((name) => !body[name])) throw new Error(body.error ?? `The server answered ${response.status}`)
  return { body: body as T, etag: response.headers.get('etag'), refreshing: response.headers.get('x-data-state') === 'stale' }
}

export const readFeatures = (url: string, signal?: AbortSignal) => readJsonTagged<{ features: Feature[]; meta: LayerMeta }>(url, signal, 'features', 'meta')

export const readPreview = (url: string, signal?: AbortSignal) => readJsonTagged<{ meta: LayerMeta; preview: LayerPreview }>(url, signal, 'meta', 'preview')

/** How a layer's features read to this page's reader (see `readersFeatures`). */
export type Reader = { locale: string; timeZone: string; layer: DashboardLayer; units?: Record<string, string> }

/** The page's reader of `layer` in `city`: their language, the time zone of the city read (a pinned layer's own). */
export const readerOf = (data: DashboardData, layer: DashboardLayer, city: string, locale: string, units?: Record<string, string>): Reader => ({
  locale,
  timeZone: timeZoneOf(data, cityOfRead(layer.fixedCity, city)),
  layer,
  units,
})

/**
 * Features as the reader reads them: entity texts the broker holds in several languages in the
 * reader's (else the site's default; src/layers/shared/languages.ts), and alert messages in the
 * reader's language when it is not the default (src/layers/shared/alertTexts.ts).
 */
export function readersFeatures(features: Feature[], { locale, timeZone, layer, units }: Reader): Feature[] {
  const inLanguage = featuresInLanguage(features, locale, [DEFAULT_LOCALE])
  if (!layer.alertTexts?.length) return inLanguage
  const presentation = createPresentation({ attributes: layer.attributeDisplay, units, locale, timeZone })
  return inLanguage.map((feature) => alertInLanguage(feature, layer.alertTexts, presentation))
}

export const readersPreview = (preview: LayerPreview, reader: Reader): LayerPreview => ({
  ...preview,
  head: readersFeatures(preview.head, reader),
  alerting: readersFeatures(preview.alerting, reader),
})

/** What the prerendered page carried for a (layer, city), as the first state. */
export const fromSnapshot = (snapshot: LayerSnapshot, locale: string): LayerState =>
  snapshot.status === 'preview'
    ? {
        features: [],
        meta: snapshot.meta,
        status: 'loading',
        // The server wrote its alert messages in the reader's language already.
        preview: { ...snapshot.preview, head: featuresInLanguage(snapshot.preview.head, locale, [DEFAULT_LOCALE]), alerting: featuresInLanguage(snapshot.preview.alerting, locale, [DEFAULT_LOCALE]) },
      }
    : { features: [], status: 'unavailable', message: snapshot.message }

export type TableSort = { column: string; direction: SortDirection }
