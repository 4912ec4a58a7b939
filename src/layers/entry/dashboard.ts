import 'server-only'

import { readableLayers } from '@/access'
import { emailEnabled } from '@/email'
import { env } from '@/env'
import { isMarkerShape } from '@/map/markers'
import { type DataBlockOnPage, dataBlocksOf } from '@/blocks/dataBlocks'
import type { MapLayer, Page } from '@/payload-types'
import { layerFeatures } from '@/server/services'
import { payloadClient } from '@/site/payload'
import { cachedGlobal } from '@/site/queries'

import { toLayerSpec } from '../server/spec'
import { cityOfRead } from '../shared/city'
import { pageCity } from './tenant'
import { ALERT_PREVIEW_LIMIT, type PreviewRequest, snapshotKey } from '../shared/preview'
import type { DashboardCity, DashboardData, DashboardLayer, LayerReference, LayerSnapshot } from '../shared/types'

const idOf = (value: LayerReference) =>
  value === null || value === undefined ? undefined : String(typeof value === 'object' ? value.id : value)

const layerIdsOf = ({ block, needs }: DataBlockOnPage): string[] => needs.layers(block).flatMap((item) => idOf(item) ?? [])

function toDashboardLayer(layer: MapLayer, mailing: boolean): DashboardLayer {
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
    refreshSeconds: layer.refreshSeconds,
    fixedCity: layer.source?.tenant || undefined,
    alertNotices: mailing && Boolean(layer.public) && (layer.alertRules?.length ?? 0) > 0,
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
 * The layers a page's data blocks use, read with the reader's rights (citizens: public layers
 * only), and a preview of their current features for the page's default city, ready to inline.
 */
export async function loadDashboard(page: Page, { draft }: { draft: boolean }): Promise<DashboardData | undefined> {
  const blocks = dataBlocksOf(page.layout)
  if (blocks.length === 0) return undefined
  const settings = await cachedGlobal('site-settings')
  const siteCities = settings?.cities ?? []
  const cities: DashboardCity[] = siteCities.map(({ name, tenant, latitude, longitude, zoom, basemap }) => ({
    name,
    tenant,
    latitude,
    longitude,
    zoom: zoom ?? 12,
    basemap: basemap || undefined,
  }))
  const defaultCity = pageCity(page, siteCities)

  const ids = [...new Set(blocks.flatMap(layerIdsOf))]
  const payload = await payloadClient()
  const { docs } = await payload.find({
    collection: 'map-layers',
    // Draft previews come from signed-in members; published pages show public layers only. The
    // server reads every field (citizens' REST reads do not get sources or rules), so it filters here.
    where: { and: [{ id: { in: ids } }, readableLayers(draft ? 'member' : 'public')] },
    depth: 0,
    limit: ids.length,
    pagination: false,
    overrideAccess: true,
  })
  const docsById = new Map(docs.map((layer) => [String(layer.id), layer]))
  const layers = Object.fromEntries([...docsById].map(([id, layer]) => [id, toDashboardLayer(layer, emailEnabled())]))

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
    [...wanted].map(async ([key, { layer, city }]) => [key, await snapshot(layer, city, previews[String(layer.id)])] as const),
  )

  return {
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
