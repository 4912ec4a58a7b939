'use client'

import { useTranslations } from 'next-intl'

import { formatClock } from '@/i18n/format'

import { useDashboard, useReaderSettings } from '@/layers/client/DashboardProvider'
import { type LayerState } from '@/layers/client/layerState'

/** The `<when>` of a status message: a time of day in the reader's locale and the city's time zone. */
function timeTag(iso: string) {
  return function When(chunks: React.ReactNode) {
    return (
      <time dateTime={iso}>
        {chunks}
      </time>
    )
  }
}

/** Whether the page gets this layer's changes pushed, and when the last came; or that it polls. */
function LiveStatus({ state }: { state: LayerState & { layerId?: string; city?: string } }) {
  const { data } = useDashboard()
  const t = useTranslations('dashboard.status')
  const { locale, timeZone } = useReaderSettings(state.city)
  if (!state.live) return null
  if (state.live.mode === 'polling') {
    const seconds = state.layerId ? data.layers[state.layerId]?.refreshSeconds : undefined
    return <span className="live-status live-status--polling">{seconds ? t('pollingEvery', { seconds }) : t('polling')}</span>
  }
  const { lastChangeAt } = state.live
  return (
    <span className="live-status live-status--live">
      <span className="live-status__dot" aria-hidden="true" />
      {t('live')} · {lastChangeAt ? t.rich('lastChange', { time: formatClock(lastChangeAt, locale, timeZone), when: timeTag(lastChangeAt) }) : t('noChangeYet')}
    </span>
  )
}

/** "Data as of 10:42:13", labelled stale when the broker stopped answering, or why nothing shows. */
export function DataStatus({ state, label }: { state: LayerState & { layerId?: string; city?: string }; label?: string }) {
  const t = useTranslations('dashboard.status')
  const { locale, timeZone } = useReaderSettings(state.city)
  const prefix = label ? `${label}: ` : ''
  const meta = state.meta
  // A preview carries its time too: the page says how fresh it is before the whole set arrives.
  if (!meta) {
    if (state.status === 'unavailable') {
      return (
        <p className="data-status data-status--error" role="status">
          {prefix}
          {t('unavailable')}
        </p>
      )
    }
    return (
      <p className="data-status" role="status">
        {prefix}
        {t('loading')}
      </p>
    )
  }
  const time = { time: formatClock(meta.fetchedAt, locale, timeZone), when: timeTag(meta.fetchedAt) }
  // The server pushes that the broker stopped answering before any poll could find out.
  const stale = meta.stale || state.live?.brokerDownSince !== undefined
  return (
    // A live layer's time moves with every change: announcing each would drown a screen reader (new alerts are announced by the alerts panel).
    <p className={`data-status${stale ? ' data-status--stale' : ''}`} role="status" aria-live={state.live?.mode === 'live' ? 'off' : undefined}>
      {prefix}
      {stale ? t.rich('stale', time) : t.rich('asOf', time)}
      {meta.truncated && ` ${t('truncated')}`}
      {state.live && ' · '}
      <LiveStatus state={state} />
    </p>
  )
}
