'use client'

import { availableFeatures, layerUrl, totalOf, useDashboard, useLayersData, usePageReader } from '@/components/dashboard/DashboardProvider'
import { DataStatus } from '@/components/dashboard/DataStatus'
import { fileName } from '@/components/dashboard/download'
import { FeatureTable } from '@/components/dashboard/FeatureTable'
import type { EntityTableBlock as EntityTableBlockData } from '@/payload-types'

/** A layer's features as a sortable, paginated table, downloadable as CSV and GeoJSON (from the server, whatever the layer's size). */
export function EntityTableBlock(block: EntityTableBlockData) {
  const { data, focusFeature } = useDashboard()
  const layerId = String(typeof block.layer === 'object' ? block.layer.id : block.layer)
  const [state] = useLayersData([layerId], block.city)
  const readPage = usePageReader(state)
  const layer = data.layers[layerId]
  if (!layer || !state) return null
  const columns = block.columns?.length ? block.columns : layer.attributes
  const base = `${fileName(block.title)}-${state.city || 'city'}`
  return (
    <section className="block entity-table" aria-labelledby={`table-${block.id}`}>
      <h2 id={`table-${block.id}`}>{block.title}</h2>
      <DataStatus state={state} />
      {/* Offered once the server has answered with data: before that, or with the broker down and nothing kept, there is no file. */}
      {state.meta && (
        <div className="downloads">
          <a className="button button--secondary" href={layerUrl(layer, state.city, 'features', { format: 'csv', columns: columns.filter((column) => layer.attributes.includes(column)).join(',') })} download={`${base}.csv`}>
            Download CSV
          </a>
          <a className="button button--secondary" href={layerUrl(layer, state.city, 'features', { format: 'geojson' })} download={`${base}.geojson`}>
            Download GeoJSON
          </a>
        </div>
      )}
      <FeatureTable
        caption={`${layer.name} (${totalOf(state)})`}
        captionHidden
        features={availableFeatures(state, 'head')}
        total={totalOf(state)}
        columns={columns}
        units={state.meta?.units ?? {}}
        pageSize={block.pageSize ?? 20}
        history={{ layerId, city: state.city }}
        onShow={(feature) => focusFeature(layerId, String(feature.id), feature)}
        readPage={readPage}
      />
    </section>
  )
}
