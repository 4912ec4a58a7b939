// The layer data the browser receives: client components import these, so nothing here may
// import server code (types only).

import type { Locale } from '@/i18n/locales'
import type { Page } from '@/payload-types'
import type { MarkerShape } from '@/map/markers'
import type { StyleSetting } from '@/map/style'

import type { AttributeDisplay } from './presentation'
import type { LayerPreview, PreviewRequest } from './preview'

/** What a layer's body says about itself (also the last line of the body). */
export interface LayerMeta {
  count: number
  fetchedAt: string
  stale: boolean
  truncated: boolean
  /** Entities without a usable location, left off the map. */
  skipped: number
  /** Unit symbol per attribute, where the broker gave a unitCode. */
  units: Record<string, string>
  /** On a page of the layer (offset and limit): how many features the whole layer has. */
  total?: number
}

export type AlertText = { message: string; attribute: string; stale: boolean }

/** What a browser may know of a map layer: its look and the attributes it shows, not its source. */
export type DashboardLayer = {
  id: string
  name: string
  description?: string
  colour: string
  radius: number
  icon: MarkerShape
  colourBy: 'style' | 'alert'
  cluster: boolean
  attributes: string[]
  popupAttributes: string[]
  /** How its attributes read to citizens (labels, units, formats, value labels): `createPresentation`. */
  attributeDisplay: AttributeDisplay[]
  refreshSeconds: number
  /** The layer is pinned to this city whatever the page shows. */
  fixedCity?: string
  /**
   * The alert rules' messages in the reader's language, by rule (a feature's `alert.rule`), with the
   * attribute each reads and whether it fires on age ({value} is then a time): only for a reader of
   * a language other than the default, whose feature bodies carry the default language's messages.
   */
  alertTexts?: AlertText[]
  /** Citizens may subscribe to its alerts by email (it has alert rules, and the site sends mail). */
  alertNotices: boolean
}

export type DashboardCity = {
  name: string
  tenant: string
  latitude: number
  longitude: number
  zoom: number
  /** The city's own basemap (PMTiles archive or style URL), else the site's. */
  basemap?: string
  /** The city's language (Site settings → Cities), for readers who have not chosen one. */
  locale: Locale
  /** The IANA time zone the city's times are shown in, e.g. Europe/Madrid. */
  timeZone: string
}

export type LayerSnapshot =
  | { status: 'preview'; meta: LayerMeta; preview: LayerPreview }
  | { status: 'unavailable'; message: string }

export type DashboardData = {
  /** The page's language (BCP 47): numbers, times and labels are written in it. */
  locale: string
  cities: DashboardCity[]
  defaultCity: string
  layers: Record<string, DashboardLayer>
  /** Keyed by `snapshotKey(layerId, city)`. */
  initial: Record<string, LayerSnapshot>
  mapStyle: StyleSetting
  mapToken?: string
  /** /api/geocode has an upstream: the maps offer address search. */
  addressSearch: boolean
  /** Layers with more features are drawn from vector tiles and paged through the server (LAYER_TILES_THRESHOLD). */
  tileThreshold: number
  /** What the page's blocks show of each layer (keyed by layer id) while it is not whole in the browser: the preview to ask the server for. */
  previews: Record<string, PreviewRequest>
}

/**
 * What a data block needs from its layers, declared in the block's own folder
 * (`src/blocks/<Name>/layerData.ts`) and listed in `src/blocks/dataBlocks.ts`: the dashboard
 * loader reads the layers it names and inlines what `preview` asks for.
 */
export type DataBlockNeeds<Block extends { blockType: string; city?: string | null }> = {
  blockType: Block['blockType']
  /** The block's layers, as stored (ids, or documents when populated). */
  layers: (block: Block) => LayerReference[]
  /** What the page's HTML carries for the block before the browser has the layer's whole set. */
  preview?: (block: Block, request: PreviewRequest) => void
}

type LayoutBlock = NonNullable<Page['layout']>[number] & { city?: string | null }

/** A block of a page paired with its needs, for the data blocks only (`dataBlocksOf`, src/blocks/dataBlocks.ts). */
export type DataBlockOnPage = { block: LayoutBlock; needs: DataBlockNeeds<LayoutBlock> }

/** A relationship to a map layer as Payload stores it: the id, or the document when populated. */
export type LayerReference = number | string | { id: number | string } | null | undefined
