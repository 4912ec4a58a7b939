'use client'

import { usePageCity, useReaderSettings } from '@/layers/client/DashboardProvider'
import { HistoryChart } from '@/components/history/HistoryChart'
import type { HistoryAggregation, HistoryWindow } from '@/layers/shared/history'
import type { ChartBlock as ChartBlockData } from '@/payload-types'

/** A layer's history (aggregated, or one place's) over a window, with its table twin and CSV. */
export function ChartBlock(block: ChartBlockData) {
  const pageCity = usePageCity()
  const layerId = String(typeof block.layer === 'object' ? block.layer.id : block.layer)
  const { locale, timeZone } = useReaderSettings(block.city || pageCity)
  return (
    <section className="block chart" aria-labelledby={`chart-${block.id}`}>
      <h2 id={`chart-${block.id}`}>{block.title}</h2>
      <HistoryChart
        title={block.title}
        locale={locale}
        timeZone={timeZone}
        query={{
          layerId,
          attributes: block.attributes ?? [],
          window: block.window as HistoryWindow,
          aggregation: block.aggregation as HistoryAggregation,
          entity: block.entity || undefined,
          city: block.city || pageCity,
        }}
      />
    </section>
  )
}
