import 'server-only'

import { readableLayers } from '@/access'
import { emailEnabled } from '@/email/entry'
import { env } from '@/env'
import { DEFAULT_LOCALE, type Locale } from '@/i18n/locales'
import { isMarkerShape } from '@/map/markers'
import type { MapLayer, Page } from '@/payload-types'
import type { Feature } from '@/ngsi'
import { layerFeatures } from './services'
import { payloadClient } from '@/site/payload'
import { cachedGlobal } from '@/site/queries'
import { citiesOf, cityNamed, timeZoneOfCity } from '@/site/cities'

import { toLayerSpec } from '../server/spec'
import { cityOfRead } from '../shared/city'
import { alertInLanguage } from '../shared/alertTexts'
import { attributeDisplayOf, createPresentation } from '../shared/presentation'
import { dashboardCities, pageCity } from './tenant'
import { ALERT_PREVIEW_LIMIT, type PreviewRequest, snapshotKey } from '../shared/preview'
import type { DashboardData, DashboardLayer, DataBlockOnPage, LayerReference, LayerSnapshot } from '../shared/types'

const idOf = (value: LayerReference) =>
  value === null || value === undefined ? undefined : String(typeof value === 'object' ? value.id : value)

const layerIdsOf = ({ block, needs }: DataBlockOnPage): string[] => needs.layers(block).flatMap((item) => idOf(item) ?? [])

/**
 * The preview with its features' alert messages in the reader's locale. The layer data (and its
 * cache, shared by every reader) carries the default locale's messages: each alert names the rule
 * that fired, whose message in the reader's locale is written as the browser writes it for the
 * features it loads later (`alertInLanguage`, one rule for both).
 */
function localizeAlerts(snapshot: LayerSnapshot, layer: DashboardLayer, locale: Locale, timeZone: string): LayerSnapshot {
  if (!layer.alertTexts?.length || snapshot.status !== 'preview') return snapshot
  const presentation = createPresentation({ attributes: layer.attributeDisplay, units: snapshot.meta.units, locale, timeZone })
  const translate = (feature: Feature) => alertInLanguage(feature, layer.alertTexts, presentation)
  return { ...snapshot, preview: { ...snapshot.preview, head: snapshot.preview.head.map(translate), alerting: snapshot.preview.alerting.map(translate) } }
}

function toDashboardLayer(layer: MapLayer, mailing: boolean, { alertTexts = false }: { alertTexts?: boolean } = {}): DashboardLayer {
  return {
    id: String(layer.id),
    name: layer.name,
    description: layer.description ?? undefined,
    colour: layer.style?.colour ?? '#0b5cad',
    radius: layer.style?.radius ?? 6,
    icon: isMarkerShape(layer.style?.icon) ? layer.style.icon : 'circle',
    colourBy: layer.style?.colourBy === 'alert' ? 'alert' : 'style',
    cluster: Boolean(layer.style?.cluster),
    attributes: layer.attributes ?? [],
    popupAttributes: layer.popupAttributes?.length ? layer.popupAttributes : (layer.attributes ?? []),
    attributeDisplay: attributeDisplayOf(layer.attributeDisplay),
    refreshSeconds: layer.refreshSeconds,
    fixedCity: layer.source?.tenant || undefined,
    alertNotices: mailing && Boolean(layer.public) && (layer.alertRules?.length ?? 0) > 0,
    ...(alertTexts && {
      alertTexts: (layer.alertRules ?? []).map((rule) => ({ message: rule.message ?? '', attribute: rule.attribute, stale: rule.operator === 'stale' })),
    }),
  }
}

async function snapshot(layer: MapLayer, city: string, request: PreviewRequest): Promise<LayerSnapshot> {
  try {
    const service = layerFeatures()
    const result = await service.get(toLayerSpec(layer), { tenant: city || undefined })
    return { status: 'preview', meta: result.meta, preview: await service.previewOf(result, request) }
  } catch {
    // The page must render whatever the broker does; the browser retries on the layer's interval.
    return { status: 'unavailable', message: 'City data cannot be loaded right now.' }
  }
}

/**
 * The layers a page's data blocks (`dataBlocksOf`, src/blocks/dataBlocks.ts) use, read with the reader's rights (citizens: public layers
 * only), and a preview of their current features for the page's default city, ready to inline.
 * Layer names, descriptions and alert messages come in `locale` (untranslated ones in the default
 * locale's words).
 */
export async function loadDashboard(
  page: Page,
  blocks: DataBlockOnPage[],
  { draft, locale = DEFAULT_LOCALE }: { draft: boolean; locale?: Locale },
): Promise<DashboardData | undefined> {
  if (blocks.length === 0) return undefined
  const settings = await cachedGlobal('site-settings', locale)
  const siteCities = citiesOf(settings)
  const cities = dashboardCities(siteCities)
  const defaultCity = pageCity(page, siteCities)

  const ids = [...new Set(blocks.flatMap(layerIdsOf))]
  const payload = await payloadClient()
  const readLayers = (readIn: Locale) =>
    payload.find({
      collection: 'map-layers',
      // Draft previews come from signed-in members; published pages show public layers only. The
      // server reads every field (citizens' REST reads do not get sources or rules), so it filters here.
      where: { and: [{ id: { in: ids } }, readableLayers(draft ? 'member' : 'public')] },
      locale: readIn,
      depth: 0,
      limit: ids.length,
      pagination: false,
      overrideAccess: true,
    })
  // The layer data is read as every reader shares it (the default locale's alert messages, as the
  // features route serves it); what the reader sees of a layer, in the reader's locale.
  const [{ docs }, localized] = await Promise.all([readLayers(DEFAULT_LOCALE), locale === DEFAULT_LOCALE ? undefined : readLayers(locale)])
  const docsById = new Map(docs.map((layer) => [String(layer.id), layer]))
  const localizedById = new Map((localized?.docs ?? docs).map((layer) => [String(layer.id), layer]))
  const layers = Object.fromEntries(
    [...docsById].map(([id, layer]) => [id, toDashboardLayer(localizedById.get(id) ?? layer, emailEnabled(), { alertTexts: locale !== DEFAULT_LOCALE })]),
  )

  // The HTML carries a preview of each layer, not its features: Next gzips every HTML response
  // afresh, so each inlined feature costs CPU on every view (docs/performance.md). The browser
  // fetches the whole set after the first paint.
  const previews: Record<string, PreviewRequest> = {}
  const wanted = new Map<string, { layer: MapLayer; city: string }>()
  for (const onPage of blocks) {
    for (const id of layerIdsOf(onPage)) {
      const layer = docsById.get(id)
      if (!layer) continue
      const city = cityOfRead(layer.source?.tenant, onPage.block.city, defaultCity) ?? ''
      wanted.set(snapshotKey(id, city), { layer, city })
      previews[id] ??= { headSize: 0, statistics: [], alertLimit: ALERT_PREVIEW_LIMIT }
      onPage.needs.preview?.(onPage.block, previews[id])
    }
  }
  const entries = await Promise.all(
    [...wanted].map(async ([key, { layer, city }]) => {
      const timeZone = timeZoneOfCity(cityNamed(siteCities, city))
      return [key, localizeAlerts(await snapshot(layer, city, previews[String(layer.id)]), layers[String(layer.id)], locale, timeZone)] as const
    }),
  )

  return {
    locale,
    cities,
    defaultCity,
    layers,
    initial: Object.fromEntries(entries),
    mapStyle: { kind: settings?.mapStyle?.kind ?? 'auto', url: settings?.mapStyle?.url ?? undefined },
    mapToken: env().PUBLIC_MAP_TOKEN || undefined,
    addressSearch: Boolean(env().GEOCODING_API_KEY),
    tileThreshold: env().LAYER_TILES_THRESHOLD,
    previews,
  }
}
