import type { DataBlockNeeds } from '@/layers/shared/types'
import type { KpiCardBlock } from '@/payload-types'

/** The card's figure is computed on the server, so the page shows it before the layer loads. */
export const kpiCardData: DataBlockNeeds<KpiCardBlock> = {
  blockType: 'kpiCard',
  layers: (block) => [block.layer],
  preview: (block, request) => {
    request.statistics.push({ statistic: block.statistic, attribute: block.attribute })
  },
}
