'use client'

import { useTranslations } from 'next-intl'
import { useEffect, useMemo, useState } from 'react'

import { EntityHistory } from '@/components/history/EntityHistory'
import { featureName } from '@/layers/shared/format'
import type { Presentation } from '@/layers/shared/presentation'
import { sortFeatures } from '@/layers/shared/sorting'
import type { Feature } from '@/ngsi'

import type { TableSort } from '@/layers/client/layerReads'

type Props = {
  caption: string
  /** The rows at hand: all of them, or the first ones while the rest loads. */
  features: Feature[]
  /** How many rows there are in all; more than `features` while the rest loads. */
  total?: number
  columns: string[]
  /** How the layer's attributes read (labels, units, formats) in the page's locale: `usePresentation`. */
  presentation: Presentation
  pageSize: number
  /** Offered per row when the features are also on a map. */
  onShow?: (feature: Feature) => void
  /** Each row opens its entity's history from this layer (and city). */
  history?: { layerId: string; city?: string }
  captionHidden?: boolean
  /** A layer too large for the browser: its rows, a page at a time, from the server (which sorts them too). */
  readPage?: (offset: number, limit: number, sort?: TableSort) => Promise<Feature[]>
}

/** A sortable, paginated table of features; entity values are rendered as text, never as HTML. */
export function FeatureTable({ caption, features, total = features.length, columns: chosen, presentation, pageSize, onShow, history, captionHidden, readPage }: Props) {
  const t = useTranslations('map.table')
  // The first column names the row (the entity's name, else its id).
  const columns = chosen.filter((column) => column !== 'name')
  const [sort, setSort] = useState<TableSort>()
  const [page, setPage] = useState(0)
  // Sorting and paging need every row (or the server): until the rest has loaded, the first page is all there is.
  const complete = features.length >= total
  const sortable = complete || Boolean(readPage)
  const sorted = useMemo(() => (sort && complete ? sortFeatures(features, sort.column, sort.direction) : features), [features, sort, complete])
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const current = complete || readPage ? Math.min(page, pages - 1) : 0
  const served = useServedPage(readPage, current, pageSize, sort)
  const rows = readPage ? (served?.key === pageKey(current, sort) ? served.rows : current === 0 && !sort ? features.slice(0, pageSize) : []) : sorted.slice(current * pageSize, (current + 1) * pageSize)

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
                  <button type="button" onClick={() => toggleSort(column)} disabled={!sortable}>
                    {presentation.columnLabel(column)}
                    <span aria-hidden="true">{sort?.column === column ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
              {onShow && (
                <th scope="col">
                  <span className="sr-only">{t('mapColumn')}</span>
                </th>
              )}
              {history && (
                <th scope="col">
                  <span className="sr-only">{t('historyColumn')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && total > 0 && (
              <tr>
                <td colSpan={columns.length + 1 + (onShow ? 1 : 0) + (history ? 1 : 0)}>{t('loadingRows')}</td>
              </tr>
            )}
            {rows.map((feature) => (
              <FeatureRow key={String(feature.id)} feature={feature} columns={columns} presentation={presentation} onShow={onShow} history={history} />
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && <Pager caption={caption} page={current} pages={pages} total={total} canGoOn={complete || Boolean(readPage)} onPage={setPage} />}
    </div>
  )
}

/** One feature's row: its name, its values as text, and where asked its "Show on map" and history. */
function FeatureRow({ feature, columns, presentation, onShow, history }: Pick<Props, 'presentation' | 'onShow' | 'history'> & { feature: Feature; columns: string[] }) {
  const t = useTranslations('map.table')
  return (
    <tr>
      <th scope="row">{featureName(feature)}</th>
      {columns.map((column) => (
        <td key={column}>{presentation.formatValue(column, feature.properties[column], { withUnit: false })}</td>
      ))}
      {onShow && (
        <td>
          <button type="button" className="link-button" onClick={() => onShow(feature)}>
            {t('showOnMap')}
          </button>
        </td>
      )}
      {history && (
        <td>
          <EntityHistory
            layerId={history.layerId}
            feature={feature}
            attributes={columns}
            city={history.city || undefined}
            locale={presentation.settings.locale}
            timeZone={presentation.settings.timeZone}
          />
        </td>
      )}
    </tr>
  )
}

/** Previous and next, with "page N of M" announced politely. */
function Pager({ caption, page, pages, total, canGoOn, onPage }: { caption: string; page: number; pages: number; total: number; canGoOn: boolean; onPage: (page: number) => void }) {
  const t = useTranslations('map.table')
  return (
    <nav className="pager" aria-label={t('pages', { caption })}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0}>
        {t('previous')}
      </button>
      <span aria-live="polite">{t('pageOf', { page: page + 1, pages, total })}</span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={!canGoOn || page >= pages - 1}>
        {t('next')}
      </button>
    </nav>
  )
}

const pageKey = (page: number, sort?: TableSort) => `${page}:${sort?.column ?? ''}:${sort?.direction ?? ''}`

/** The rows of one page from the server; the last page read stays until the next one arrives. */
function useServedPage(readPage: Props['readPage'], page: number, pageSize: number, sort?: TableSort) {
  const [served, setServed] = useState<{ key: string; rows: Feature[] }>()
  useEffect(() => {
    if (!readPage) return
    let current = true
    readPage(page * pageSize, pageSize, sort).then(
      (rows) => current && setServed({ key: pageKey(page, sort), rows }),
      // The rows of the page shown so far stay; the next refresh or page turn asks again.
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [readPage, page, pageSize, sort])
  return served
}
