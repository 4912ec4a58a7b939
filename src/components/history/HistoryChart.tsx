'use client'

import dynamic from 'next/dynamic'
import { useLocale, useTranslations } from 'next-intl'
import { useEffect, useMemo, useState } from 'react'

import { download, fileName } from '@/components/dashboard/download'
import { historyPresentation, historyTable, historyToCsv, type History, type HistoryAggregation, type HistoryWindow } from '@/layers/shared/history'
import { DEFAULT_TIME_ZONE, type Presentation } from '@/layers/shared/presentation'

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

/**
 * Why there is no history: `unavailable`, the broker keeps none (501); else the server's own words
 * (`message`, in English: the API's) or its status (0: no answer at all), said in the reader's language.
 */
type Failure = { status: 'failed'; reason: 'unavailable' } | { status: 'failed'; reason: 'error'; code: number; message?: string }
export type Loaded = { status: 'loading' } | { status: 'ready'; history: History } | Failure

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
        if (response.status === 501) return setLoaded({ status: 'failed', reason: 'unavailable', url })
        const { error } = (await response.json().catch(() => ({}))) as { error?: string }
        setLoaded({ status: 'failed', reason: 'error', code: response.status, message: error || undefined, url })
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ status: 'failed', reason: 'error', code: 0, url })
      })
    return () => controller.abort()
  }, [url])
  // A new query shows "loading" at once, not the previous answer.
  return loaded.url === url ? loaded : { status: 'loading' }
}

type Translate = ReturnType<typeof useTranslations<'dashboard.history'>>

/** What the chart shows, in words: the caption of the table twin and the label of the plot. */
function describe(history: History, t: Translate, presentation: Presentation) {
  const what = history.entity ? (history.entity.name ?? history.entity.id) : t('places', { layer: history.layer.name, count: history.entities })
  const how =
    history.aggregation === 'raw' ? t('readings') : t('aggregated', { aggregation: history.aggregation, period: history.period?.replace(/^PT?/, '').toLowerCase() ?? '' })
  return t('description', { attributes: history.series.map((series) => presentation.attributeLabel(series.attribute)).join(', '), what, how, window: history.window })
}

type Reader = {
  /** The reader's language (BCP 47), else the page's: numbers and times are written in it. */
  locale?: string
  /** The city's time zone (IANA): times are shown in it. */
  timeZone?: string
}

/** Why the history is missing, in the reader's language (the server's own words when it gave some). */
function failureText(failure: Failure, t: Translate) {
  if (failure.reason === 'unavailable') return t('unavailable')
  if (failure.message) return failure.message
  return failure.code ? t('failedStatus', { status: failure.code }) : t('failed')
}

/** The chart's table twin: every time and value, for screen readers and for reading exact values. */
function HistoryTable({ history, presentation, description }: { history: History; presentation: Presentation; description: string }) {
  const t = useTranslations('dashboard.history')
  const table = historyTable(history, presentation)
  return (
    <details className="history-chart__table">
      <summary>{t('showTable')}</summary>
      <div className="table-scroll" role="region" aria-label={t('tableLabel', { description })} tabIndex={0}>
        <table>
          <caption className="sr-only">{description}</caption>
          <thead>
            <tr>
              {table.header.map((column, index) => (
                <th key={column} scope="col">
                  {index === 0 ? t('timeColumn') : column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.time}>
                <th scope="row">
                  <time dateTime={new Date(row.time).toISOString()}>{presentation.formatTime(row.time)}</time>
                </th>
                {row.values.map((value, index) => (
                  <td key={index}>{value === null ? '–' : presentation.formatValue(history.series[index].attribute, value, { withUnit: false })}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}

/**
 * A history chart with its table twin (for screen readers and for reading exact values) and a CSV
 * download. Entity names are rendered as text by React and uPlot (textContent), never as HTML.
 */
export function HistoryChart({
  query,
  title,
  compact = false,
  locale: askedLocale,
  timeZone = DEFAULT_TIME_ZONE,
  loaded: given,
}: { query: HistoryQuery; title?: string; compact?: boolean; /** The history, when the caller has loaded it already. */ loaded?: Loaded } & Reader) {
  const own = useHistory(given ? undefined : query)
  const loaded = given ?? own
  const t = useTranslations('dashboard.history')
  const pageLocale = useLocale()
  const locale = askedLocale ?? pageLocale
  const history = loaded.status === 'ready' ? loaded.history : undefined
  // Attributes read as the layer shows them (the history carries its display settings).
  const presentation = useMemo(() => history && historyPresentation(history, { locale, timeZone }), [history, locale, timeZone])
  if (loaded.status === 'loading') return <p className="muted history-chart__status">{t('loading')}</p>
  if (loaded.status === 'failed') return <p className="history-chart__status history-chart__status--failed">{failureText(loaded, t)}</p>
  if (!history || !presentation) return null
  const description = describe(history, t, presentation)
  // Text attributes (a name, a status) have no numbers: say so, and draw the others.
  const withoutNumbers = history.series.filter((series) => series.values.every((value) => value === null))
  const empty = withoutNumbers.length === history.series.length
  return (
    <div className={`history-chart${compact ? ' history-chart--compact' : ''}`}>
      <p className="muted history-chart__description">{description}</p>
      {empty ? (
        <p className="history-chart__status">{t('noNumbers')}</p>
      ) : (
        <Plot
          history={{ ...history, series: history.series.filter((series) => !withoutNumbers.includes(series)) }}
          presentation={presentation}
          label={description}
          compact={compact}
        />
      )}
      {!empty &&
        withoutNumbers.map(({ attribute }) => (
          <p key={attribute} className="muted history-chart__status">
            {t('attributeWithoutNumbers', { attribute: presentation.attributeLabel(attribute) })}
          </p>
        ))}
      <HistoryTable history={history} presentation={presentation} description={description} />
      {!compact && (
        <div className="downloads">
          <button type="button" className="button button--secondary" disabled={empty} onClick={() => download(historyToCsv(history, presentation), 'text/csv;charset=utf-8', `${fileName(title ?? description)}.csv`)}>
            {t('downloadCsv')}
          </button>
        </div>
      )}
    </div>
  )
}
