import { readableLayers } from '@/access'
import { env } from '@/env'
import { isMarkerShape } from '@/map/markers'
import type { MapLayer, Page } from '@/payload-types'
import { layerFeatures } from '@/server/services'
import { payloadClient } from '@/site/payload'
import { cachedGlobal } from '@/site/queries'

import { toLayerSpec } from '../server/spec'
import { cityOfRead } from '../shared/city'
import { pageCity } from './tenant'
import { ALERT_PREVIEW_LIMIT, type PreviewRequest, snapshotKey } from '../shared/preview'
import type { Statistic } from '../shared/statistics'
import type { DashboardCity, DashboardData, DashboardLayer, LayerSnapshot } from '../shared/types'

/** Blocks that show map-layer data (by block slug): the page loads those layers for them. */
const DATA_BLOCK_TYPES = ['mapView', 'kpiCard', 'entityTable', 'alertsPanel'] as const

type LayoutBlock = NonNullable<Page['layout']>[number]
type DataBlock = Extract<LayoutBlock, { blockType: (typeof DATA_BLOCK_TYPES)[number] }>

const isDataBlock = (block: LayoutBlock): block is DataBlock => (DATA_BLOCK_TYPES as readonly string[]).includes(block.blockType)

const idOf = (value: number | string | MapLayer | null | undefined) =>
  value === null || value === undefined ? undefined : String(typeof value === 'object' ? value.id : value)

function blockLayerIds(block: DataBlock): string[] {
  const value = 'layers' in block ? block.layers : block.layer
  return (Array.isArray(value) ? value : [value]).flatMap((item) => idOf(item) ?? [])
}

function toDashboardLayer(layer: MapLayer): DashboardLayer {
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

/** What a block shows before the browser has the layer's whole set. */
function addToRequest(request: PreviewRequest, block: DataBlock) {
  if (block.blockType === 'entityTable') request.headSize = Math.max(request.headSize, block.pageSize ?? 20)
  if (block.blockType === 'kpiCard') request.statistics.push({ statistic: block.statistic as Statistic, attribute: block.attribute })
}

/**
 * The layers a page's data blocks use, read with the reader's rights (citizens: public layers
 * only), and a preview of their current features for the page's default city, ready to inline.
 */
export async function loadDashboard(page: Page, { draft }: { draft: boolean }): Promise<DashboardData | undefined> {
  const blocks = (page.layout ?? []).filter(isDataBlock)
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

  const ids = [...new Set(blocks.flatMap(blockLayerIds))]
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
  const layers = Object.fromEntries(docs.map((layer) => [String(layer.id), toDashboardLayer(layer)]))

  // The HTML carries a preview of each layer, not its features: Next gzips every HTML response
  // afresh, so each inlined feature costs CPU on every view (measured: 1,000 inlined features cut a
  // cached page from ~1,700 to ~130 req/s). The browser fetches the whole set after the first paint.
  const previews: Record<string, PreviewRequest> = {}
  const wanted = new Map<string, { layer: MapLayer; city: string }>()
  for (const block of blocks) {
    for (const id of blockLayerIds(block)) {
      const layer = docs.find((doc) => String(doc.id) === id)
      if (!layer) continue
      const city = cityOfRead(layer.source?.tenant, block.city, defaultCity) ?? ''
      wanted.set(snapshotKey(id, city), { layer, city })
      previews[id] ??= { headSize: 0, statistics: [], alertLimit: ALERT_PREVIEW_LIMIT }
      addToRequest(previews[id], block)
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
