'use client'

import { useMemo, useState } from 'react'

import { EntityHistory } from '@/components/history/EntityHistory'
import { displayValue, featureName, type SortDirection, sortFeatures } from '@/layers/summary'
import type { Feature } from '@/ngsi'

type Props = {
  caption: string
  /** The rows at hand: all of them, or the first ones while the rest loads. */
  features: Feature[]
  /** How many rows there are in all; more than `features` while the rest loads. */
  total?: number
  columns: string[]
  units: Record<string, string>
  pageSize: number
  /** Offered per row when the features are also on a map. */
  onShow?: (feature: Feature) => void
  /** Each row opens its entity's history from this layer (and city). */
  history?: { layerId: string; city?: string }
  captionHidden?: boolean
}

const label = (column: string) => (column === 'name' ? 'Name' : column)

/** A sortable, paginated table of features; entity values are rendered as text, never as HTML. */
export function FeatureTable({ caption, features, total = features.length, columns: chosen, units, pageSize, onShow, history, captionHidden }: Props) {
  // The first column names the row (the entity's name, else its id).
  const columns = chosen.filter((column) => column !== 'name')
  const [sort, setSort] = useState<{ column: string; direction: SortDirection }>()
  const [page, setPage] = useState(0)
  // Sorting and paging need every row: until the rest has loaded, the first page is all there is.
  const complete = features.length >= total
  const sorted = useMemo(() => (sort && complete ? sortFeatures(features, sort.column, sort.direction) : features), [features, sort, complete])
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const current = complete ? Math.min(page, pages - 1) : 0
  const rows = sorted.slice(current * pageSize, (current + 1) * pageSize)

  const toggleSort = (column: string) =>
    setSort((previous) => ({
      column,
      direction: previous?.column === column && previous.direction === 'ascending' ? 'descending' : 'ascending',
    }))

  return (
    <div className="feature-table">
      <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
        <table>
          <caption className={captionHidden ? 'sr-only' : undefined}>{caption}</caption>
          <thead>
            <tr>
              {['name', ...columns].map((column) => (
                <th key={column} scope="col" aria-sort={sort?.column === column ? sort.direction : undefined}>
                  <button type="button" onClick={() => toggleSort(column)} disabled={!complete}>
                    {label(column)}
                    {units[column] ? ` (${units[column]})` : ''}
                    <span aria-hidden="true">{sort?.column === column ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
              {onShow && (
                <th scope="col">
                  <span className="sr-only">Map</span>
                </th>
              )}
              {history && (
                <th scope="col">
                  <span className="sr-only">History</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && !complete && (
              <tr>
                <td colSpan={columns.length + 1 + (onShow ? 1 : 0) + (history ? 1 : 0)}>Loading the rows…</td>
              </tr>
            )}
            {rows.map((feature) => (
              <tr key={String(feature.id)}>
                <th scope="row">{featureName(feature)}</th>
                {columns.map((column) => (
                  <td key={column}>{displayValue(feature.properties[column])}</td>
                ))}
                {onShow && (
                  <td>
                    <button type="button" className="link-button" onClick={() => onShow(feature)}>
                      Show on map
                    </button>
                  </td>
                )}
                {history && (
                  <td>
                    <EntityHistory layerId={history.layerId} feature={feature} attributes={columns} city={history.city || undefined} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className="pager" aria-label={`${caption}: pages`}>
          <button type="button" onClick={() => setPage(current - 1)} disabled={current === 0}>
            Previous
          </button>
          <span aria-live="polite">
            Page {current + 1} of {pages} ({total} rows)
          </span>
          <button type="button" onClick={() => setPage(current + 1)} disabled={!complete || current >= pages - 1}>
            Next
          </button>
        </nav>
      )}
    </div>
  )
}
