'use client'

import { useTranslations } from 'next-intl'

import { useDashboard, useLayersData, usePageReader, usePresentation } from '@/layers/client/DashboardProvider'
import { availableFeatures, layerUrl, totalOf } from '@/layers/client/layerState'
import { DataStatus } from '@/components/dashboard/DataStatus'
import { fileName } from '@/components/dashboard/download'
import { FeatureTable } from '@/components/dashboard/FeatureTable'
import type { EntityTableBlock as EntityTableBlockData } from '@/payload-types'

/** A layer's features as a sortable, paginated table, downloadable as CSV and GeoJSON (from the server, whatever the layer's size). */
export function EntityTableBlock(block: EntityTableBlockData) {
  const { data, focusFeature } = useDashboard()
  const t = useTranslations('dashboard.table')
  const layerId = String(typeof block.layer === 'object' ? block.layer.id : block.layer)
  const [state] = useLayersData([layerId], block.city)
  const readPage = usePageReader(state)
  const presentation = usePresentation(layerId, { city: state?.city, units: state?.meta?.units })
  const layer = data.layers[layerId]
  if (!layer || !state) return null
  const columns = block.columns?.length ? block.columns : layer.attributes
  const base = `${fileName(block.title)}-${state.city || t('fileCity')}`
  return (
    <section className="block entity-table" aria-labelledby={`table-${block.id}`}>
      <h2 id={`table-${block.id}`}>{block.title}</h2>
      <DataStatus state={state} />
      {/* Offered once the server has answered with data: before that, or with the broker down and nothing kept, there is no file. */}
      {state.meta && (
        <div className="downloads">
          <a className="button button--secondary" href={layerUrl(layer, state.city, 'features', { format: 'csv', columns: columns.filter((column) => layer.attributes.includes(column)).join(',') })} download={`${base}.csv`}>
            {t('downloadCsv')}
          </a>
          <a className="button button--secondary" href={layerUrl(layer, state.city, 'features', { format: 'geojson' })} download={`${base}.geojson`}>
            {t('downloadGeojson')}
          </a>
        </div>
      )}
      <FeatureTable
        caption={t('caption', { name: layer.name, count: totalOf(state) })}
        captionHidden
        features={availableFeatures(state, 'head')}
        total={totalOf(state)}
        columns={columns}
        presentation={presentation}
        pageSize={block.pageSize ?? 20}
        history={{ layerId, city: state.city }}
        onShow={(feature) => focusFeature(layerId, String(feature.id), feature)}
        readPage={readPage}
      />
    </section>
  )
}
