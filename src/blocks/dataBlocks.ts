import type { DataBlockOnPage } from '@/layers/shared/types'
import type { Page } from '@/payload-types'

import { alertsPanelData } from './AlertsPanel/layerData'
import { entityTableData } from './EntityTable/layerData'
import { kpiCardData } from './KpiCard/layerData'
import { mapViewData } from './MapView/layerData'

/** The blocks that show map-layer data, each with what it needs from its layers (its own layerData.ts). */
const DATA_BLOCKS = [mapViewData, kpiCardData, entityTableData, alertsPanelData]

/** The page's data blocks, each with its needs: what `loadDashboard` (src/layers/entry/dashboard.ts) reads for them. */
export function dataBlocksOf(layout: Page['layout']): DataBlockOnPage[] {
  return (layout ?? []).flatMap((block) => {
    const needs = DATA_BLOCKS.find((candidate) => candidate.blockType === block.blockType)
    return needs ? [{ block, needs: needs as unknown as DataBlockOnPage['needs'] }] : []
  })
}
