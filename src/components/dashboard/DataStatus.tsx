'use client'

import { type LayerState, useDashboard } from './DashboardProvider'

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** What the status line says, in one place (to translate later). */
const TEXT = {
  live: 'Live',
  lastChange: 'last change',
  noChangeYet: 'no change since the page opened',
  polling: (seconds: number | undefined) => (seconds ? `updated every ${seconds} s (live updates unavailable)` : 'live updates unavailable'),
}

/** Whether the page gets this layer's changes pushed, and when the last came; or that it polls. */
function LiveStatus({ state }: { state: LayerState & { layerId?: string } }) {
  const { data } = useDashboard()
  if (!state.live) return null
  if (state.live.mode === 'polling') {
    return <span className="live-status live-status--polling">{TEXT.polling(state.layerId ? data.layers[state.layerId]?.refreshSeconds : undefined)}</span>
  }
  return (
    <span className="live-status live-status--live">
      <span className="live-status__dot" aria-hidden="true" />
      {TEXT.live} ·{' '}
      {state.live.lastChangeAt ? (
        <>
          {TEXT.lastChange}{' '}
          <time dateTime={state.live.lastChangeAt} suppressHydrationWarning>
            {timeOf(state.live.lastChangeAt)}
          </time>
        </>
      ) : (
        TEXT.noChangeYet
      )}
    </span>
  )
}

/** "Data as of 10:42:13", labelled stale when the broker stopped answering, or why nothing shows. */
export function DataStatus({ state, label }: { state: LayerState & { layerId?: string }; label?: string }) {
  const prefix = label ? `${label}: ` : ''
  const meta = state.meta
  // A preview carries its time too: the page says how fresh it is before the whole set arrives.
  if (!meta) {
    if (state.status === 'unavailable') {
      return (
        <p className="data-status data-status--error" role="status">
          {prefix}City data is unavailable right now; this will retry automatically.
        </p>
      )
    }
    return <p className="data-status" role="status">{prefix}Loading city data…</p>
  }
  return (
    // A live layer's time moves with every change: announcing each would drown a screen reader (new alerts are announced by the alerts panel).
    <p className={`data-status${meta.stale ? ' data-status--stale' : ''}`} role="status" aria-live={state.live?.mode === 'live' ? 'off' : undefined}>
      {prefix}
      {meta.stale ? 'Stale data, the city data service is not answering. Last update ' : 'Data as of '}
      <time dateTime={meta.fetchedAt} suppressHydrationWarning>
        {timeOf(meta.fetchedAt)}
      </time>
      {meta.truncated && ' (showing the first part of a larger data set)'}
      {state.live && ' · '}
      <LiveStatus state={state} />
    </p>
  )
}
