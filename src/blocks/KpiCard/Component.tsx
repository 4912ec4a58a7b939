'use client'

import { useTranslations } from 'next-intl'
import { useMemo } from 'react'

import { useDashboard, useLayersData, usePresentation } from '@/layers/client/DashboardProvider'
import { hasWholeSet } from '@/layers/client/layerState'
import { DataStatus } from '@/components/dashboard/DataStatus'
import { useHistory } from '@/components/history/HistoryChart'
import { featureName } from '@/layers/shared/format'
import type { HistoryAggregation } from '@/layers/shared/history'
import { statisticKey } from '@/layers/shared/preview'
import { measure, type Statistic, trendOf } from '@/layers/shared/statistics'
import type { KpiCardBlock as KpiCardBlockData } from '@/payload-types'

const ARROWS = { up: '▲', down: '▼', flat: '▶' } as const
// The history's aggregation that is this statistic over the layer's places (counts and sums have none).
const HISTORY_AGGREGATION: Partial<Record<Statistic, HistoryAggregation>> = { average: 'avg', min: 'min', max: 'max' }

/** One number from a layer, with its change over the last 24 hours. */
export function KpiCardBlock(block: KpiCardBlockData) {
  const { data } = useDashboard()
  const t = useTranslations('dashboard.kpi')
  const layerId = String(typeof block.layer === 'object' ? block.layer.id : block.layer)
  const [state] = useLayersData([layerId], block.city)
  const statistic = block.statistic as Statistic
  const key = statisticKey(statistic, block.attribute)
  // Once the whole set is here the number is worked out from it (once per refresh, not per render);
  // until then, and for a layer drawn from tiles, it is the server's preview of it.
  const features = state && hasWholeSet(state) ? state.features : undefined
  const measured = useMemo(() => features && measure(features, statistic, block.attribute ?? undefined), [features, statistic, block.attribute])
  const value = measured ? measured.value : (state?.preview?.statistics[key] ?? undefined)
  const holderName = measured ? measured.holder && featureName(measured.holder) : state?.preview?.holders[key]
  const presentation = usePresentation(layerId, { city: state?.city, units: state?.meta?.units })
  const attribute = block.attribute ?? ''
  // The block's own unit wins over the layer's (and the broker's); a count has none, a percentage its sign.
  const unit = statistic === 'count' ? '' : block.unit || (attribute && presentation.unitOf(attribute)) || ''
  const figure = (number: number) => (statistic === 'count' ? presentation.formatNumber(number, 0) : presentation.formatValue(attribute, number, { withUnit: false }))

  // The trend compares with the same statistic 24 hours ago, from the broker's history.
  const aggregation = HISTORY_AGGREGATION[statistic]
  const history = useHistory(
    aggregation && block.attribute && state ? { layerId, attributes: [block.attribute], window: 'day', aggregation, city: state.city || undefined } : undefined,
  )
  const dayAgo = history.status === 'ready' ? history.history.series[0]?.values.find((then) => then !== null) : undefined
  const trend = value === undefined || dayAgo === undefined || dayAgo === null ? undefined : trendOf(value, dayAgo)

  if (!data.layers[layerId]) return null
  return (
    <section className="block kpi-card" aria-label={block.label}>
      <h2 className="kpi-label">{block.label}</h2>
      <p className="kpi-value">
        {value === undefined ? '–' : figure(value)}
        {unit && <span className="kpi-unit"> {unit}</span>}
      </p>
      {trend && (
        <p className={`kpi-trend kpi-trend--${trend.direction}`}>
          <span aria-hidden="true">{ARROWS[trend.direction]} </span>
          {trend.direction === 'flat' ? t('trendFlat') : t('trendDelta', { delta: `${trend.delta > 0 ? '+' : '−'}${figure(Math.abs(trend.delta))}` })}
        </p>
      )}
      {holderName && <p className="kpi-holder">{t('holder', { name: holderName })}</p>}
      <p className="kpi-detail muted">
        {t('detail', { statistic, attribute: attribute && presentation.attributeLabel(attribute) })} · {data.layers[layerId].name}
      </p>
      {state && <DataStatus state={state} />}
    </section>
  )
}
