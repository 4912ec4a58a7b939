'use client'

import dynamic from 'next/dynamic'
import { useEffect, useState } from 'react'

import { download, fileName } from '@/components/dashboard/download'
import { formatNumber } from '@/layers/shared/format'
import { formatTime, HISTORY_UNAVAILABLE, historyTable, historyToCsv, type History, type HistoryAggregation, type HistoryWindow } from '@/layers/shared/history'

// uPlot (~20 kB gzip) is fetched only when a chart is on screen.
const Plot = dynamic(() => import('./Plot'), { ssr: false, loading: () => <div className="history-chart__plot history-chart__plot--loading" /> })

export type HistoryQuery = {
  layerId: string
  attributes: string[]
  window: HistoryWindow
  aggregation: HistoryAggregation
  entity?: string
  city?: string
}

type Loaded = { status: 'loading' } | { status: 'ready'; history: History } | { status: 'failed'; message: string }

export const historyUrl = ({ layerId, attributes, window, aggregation, entity, city }: HistoryQuery) => {
  const search = new URLSearchParams({ attributes: attributes.join(','), window, aggregation })
  if (entity) search.set('entity', entity)
  if (city) search.set('city', city)
  return `/api/layers/${encodeURIComponent(layerId)}/history?${search}`
}

/** A history answer from the route, or why there is none (501: the broker keeps no history). */
export function useHistory(query: HistoryQuery | undefined): Loaded {
  const url = query && historyUrl(query)
  const [loaded, setLoaded] = useState<Loaded & { url?: string }>({ status: 'loading' })
  useEffect(() => {
    if (!url) return
    const controller = new AbortController()
    fetch(url, { signal: controller.signal, credentials: 'same-origin' })
      .then(async (response) => {
        if (response.ok) return setLoaded({ status: 'ready', history: (await response.json()) as History, url })
        const message = response.status === 501 ? HISTORY_UNAVAILABLE : ((await response.json().catch(() => ({}))) as { error?: string }).error
        setLoaded({ status: 'failed', message: message || `History cannot be loaded (${response.status})`, url })
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ status: 'failed', message: `History cannot be loaded: ${(error as Error).message}`, url })
      })
    return () => controller.abort()
  }, [url])
  // A new query shows "loading" at once, not the previous answer.
  return loaded.url === url ? loaded : { status: 'loading' }
}

const WINDOW_LABELS: Record<HistoryWindow, string> = { hour: 'last hour', day: 'last 24 hours', week: 'last 7 days', month: 'last 30 days' }
const AGGREGATION_LABELS: Record<HistoryAggregation, string> = { avg: 'average', min: 'minimum', max: 'maximum', raw: 'readings' }

/** What the chart shows, in words: the caption of the table twin and the label of the plot. */
function describe(history: History) {
  const what = history.entity ? (history.entity.name ?? history.entity.id) : `${history.layer.name}, ${history.entities} places`
  const how = history.aggregation === 'raw' ? 'readings' : `${AGGREGATION_LABELS[history.aggregation]} per ${history.period?.replace(/^PT?/, '').toLowerCase()}`
  return `${history.series.map((series) => series.attribute).join(', ')} of ${what}, ${how}, ${WINDOW_LABELS[history.window]}`
}

/**
 * A history chart with its table twin (for screen readers and for reading exact values) and a CSV
 * download. Entity names are rendered as text by React and uPlot (textContent), never as HTML.
 */
export function HistoryChart({ query, title, compact = false }: { query: HistoryQuery; title?: string; compact?: boolean }) {
  const loaded = useHistory(query)
  if (loaded.status === 'loading') return <p className="muted history-chart__status">Loading the history…</p>
  if (loaded.status === 'failed') return <p className="history-chart__status history-chart__status--failed">{loaded.message}</p>
  const { history } = loaded
  const description = describe(history)
  const table = historyTable(history)
  // Text attributes (a name, a status) have no numbers: say so, and draw the others.
  const withoutNumbers = history.series.filter((series) => series.values.every((value) => value === null))
  const empty = withoutNumbers.length === history.series.length
  return (
    <div className={`history-chart${compact ? ' history-chart--compact' : ''}`}>
      <p className="muted history-chart__description">{description}</p>
      {empty ? (
        <p className="history-chart__status">No numeric readings in this period.</p>
      ) : (
        <Plot history={{ ...history, series: history.series.filter((series) => !withoutNumbers.includes(series)) }} label={description} compact={compact} />
      )}
      {!empty &&
        withoutNumbers.map(({ attribute }) => (
          <p key={attribute} className="muted history-chart__status">
            “{attribute}” has no numbers to chart in this period.
          </p>
        ))}
      <details className="history-chart__table">
        <summary>Show as table</summary>
        <div className="table-scroll" role="region" aria-label={`${description}: table`} tabIndex={0}>
          <table>
            <caption className="sr-only">{description}</caption>
            <thead>
              <tr>
                {table.header.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row.time}>
                  <th scope="row">
                    <time dateTime={new Date(row.time).toISOString()}>{formatTime(row.time)}</time>
                  </th>
                  {row.values.map((value, index) => (
                    <td key={index}>{value === null ? '–' : formatNumber(value)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      {!compact && (
        <div className="downloads">
          <button type="button" className="button button--secondary" disabled={empty} onClick={() => download(historyToCsv(history), 'text/csv;charset=utf-8', `${fileName(title ?? description)}.csv`)}>
            Download CSV
          </button>
        </div>
      )}
    </div>
  )
}
