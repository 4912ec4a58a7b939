'use client'

import type { LayerState } from './DashboardProvider'

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** "Data as of 10:42:13", labelled stale when the broker stopped answering, or why nothing shows. */
export function DataStatus({ state, label }: { state: LayerState; label?: string }) {
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
    <p className={`data-status${meta.stale ? ' data-status--stale' : ''}`} role="status">
      {prefix}
      {meta.stale ? 'Stale data, the city data service is not answering. Last update ' : 'Data as of '}
      <time dateTime={meta.fetchedAt} suppressHydrationWarning>
        {timeOf(meta.fetchedAt)}
      </time>
      {meta.truncated && ' (showing the first part of a larger data set)'}
    </p>
  )
}
