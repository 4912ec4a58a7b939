'use client'

import { useEffect, useMemo, useRef, useState } from 'react'

import { hasWholeSet, useDashboard, useLayersData } from '@/components/dashboard/DashboardProvider'
import { DataStatus } from '@/components/dashboard/DataStatus'
import { featureName, formatNumber, measure, type Statistic, statisticKey, type Trend, trendOf } from '@/layers/summary'
import type { KpiCardBlock as KpiCardBlockData } from '@/payload-types'

const ARROWS = { up: '▲', down: '▼', flat: '▶' } as const

/** One number from a layer, with its change since the previous refresh. */
export function KpiCardBlock(block: KpiCardBlockData) {
  const { data } = useDashboard()
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
  const unit = statistic === 'count' ? '' : block.unit || (block.attribute && state?.meta?.units[block.attribute]) || ''

  // The trend compares with the value before the last refresh of the same city.
  const previous = useRef<{ city: string; value?: number; fetchedAt?: string }>(undefined)
  const [trend, setTrend] = useState<{ trend: Trend; since: string }>()
  const fetchedAt = state?.meta?.fetchedAt
  useEffect(() => {
    if (!state || value === undefined || !fetchedAt) return
    const before = previous.current
    if (before && before.city === state.city && before.fetchedAt !== fetchedAt) {
      const change = trendOf(value, before.value)
      if (change && before.fetchedAt) setTrend({ trend: change, since: before.fetchedAt })
    } else if (before?.city !== state.city) setTrend(undefined)
    if (before?.fetchedAt !== fetchedAt) previous.current = { city: state.city, value, fetchedAt }
  }, [state, value, fetchedAt])

  if (!data.layers[layerId]) return null
  return (
    <section className="block kpi-card" aria-label={block.label}>
      <h2 className="kpi-label">{block.label}</h2>
      <p className="kpi-value">
        {value === undefined ? '–' : formatNumber(value)}
        {unit && <span className="kpi-unit"> {unit}</span>}
      </p>
      {trend && (
        <p className={`kpi-trend kpi-trend--${trend.trend.direction}`}>
          <span aria-hidden="true">{ARROWS[trend.trend.direction]} </span>
          {trend.trend.direction === 'flat' ? 'No change' : `${trend.trend.delta > 0 ? '+' : '−'}${formatNumber(Math.abs(trend.trend.delta))}`}{' '}
          since{' '}
          <time dateTime={trend.since}>{new Date(trend.since).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}</time>
        </p>
      )}
      {holderName && <p className="kpi-holder">at {holderName}</p>}
      <p className="kpi-detail muted">
        {statistic === 'count' ? 'places' : `${statistic} of ${block.attribute}`} · {data.layers[layerId].name}
      </p>
      {state && <DataStatus state={state} />}
    </section>
  )
}
