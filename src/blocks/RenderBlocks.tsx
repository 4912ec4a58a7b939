import type { Page } from '@/payload-types'

import { AlertsPanelBlock } from './AlertsPanel/Component'
import { CallToActionBlock } from './CallToAction/Component'
import { ChartBlock } from './Chart/Component'
import { ContentBlock } from './Content/Component'
import { EntityTableBlock } from './EntityTable/Component'
import { KpiCardBlock } from './KpiCard/Component'
import { MapViewBlock } from './MapView/Component'
import { MapCodePrefetch } from './MapView/MapCodePrefetch'
import { MediaBlock } from './MediaBlock/Component'
import { WeatherNowBlock } from './WeatherNow/Component'

type LayoutBlock = NonNullable<Page['layout']>[number]

const components: { [Type in LayoutBlock['blockType']]: React.ComponentType<Extract<LayoutBlock, { blockType: Type }>> } = {
  content: ContentBlock,
  cta: CallToActionBlock,
  mediaBlock: MediaBlock,
  mapView: MapViewBlock,
  kpiCard: KpiCardBlock,
  entityTable: EntityTableBlock,
  alertsPanel: AlertsPanelBlock,
  weatherNow: WeatherNowBlock,
  chart: ChartBlock,
}

export function RenderBlocks({ blocks }: { blocks: LayoutBlock[] | null | undefined }) {
  return (
    <>
      {blocks?.some((block) => block.blockType === 'mapView') && <MapCodePrefetch />}
      {(blocks ?? []).map((block, index) => {
        const Component = components[block.blockType] as React.ComponentType<LayoutBlock> | undefined
        return Component ? <Component key={block.id ?? index} {...block} /> : null
      })}
    </>
  )
}
