import type { DataBlockNeeds } from '@/layers/shared/types'
import type { Page } from '@/payload-types'

import { alertsPanelData } from './AlertsPanel/layerData'
import { entityTableData } from './EntityTable/layerData'
import { kpiCardData } from './KpiCard/layerData'
import { mapViewData } from './MapView/layerData'

type LayoutBlock = NonNullable<Page['layout']>[number]

/** The blocks that show map-layer data, each with what it needs from its layers (its own layerData.ts). */
const DATA_BLOCKS = [mapViewData, kpiCardData, entityTableData, alertsPanelData]

/** A block of a page paired with its needs, for the data blocks only. */
export type DataBlockOnPage = { block: LayoutBlock & { city?: string | null }; needs: DataBlockNeeds<LayoutBlock & { city?: string | null }> }

export function dataBlocksOf(layout: Page['layout']): DataBlockOnPage[] {
  return (layout ?? []).flatMap((block) => {
    const needs = DATA_BLOCKS.find((candidate) => candidate.blockType === block.blockType)
    return needs ? [{ block, needs: needs as unknown as DataBlockOnPage['needs'] }] : []
  })
}
