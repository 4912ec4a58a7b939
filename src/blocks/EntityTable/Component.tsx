'use client'

import { availableFeatures, totalOf, useDashboard, useLayersData } from '@/components/dashboard/DashboardProvider'
import { DataStatus } from '@/components/dashboard/DataStatus'
import { download, fileName } from '@/components/dashboard/download'
import { FeatureTable } from '@/components/dashboard/FeatureTable'
import { featuresToCsv, featuresToGeoJson } from '@/layers/summary'
import type { EntityTableBlock as EntityTableBlockData } from '@/payload-types'

/** A layer's features as a sortable, paginated table, downloadable as CSV and GeoJSON. */
export function EntityTableBlock(block: EntityTableBlockData) {
  const { data, focusFeature } = useDashboard()
  const layerId = String(typeof block.layer === 'object' ? block.layer.id : block.layer)
  const [state] = useLayersData([layerId], block.city)
  const layer = data.layers[layerId]
  if (!layer || !state) return null
  const columns = block.columns?.length ? block.columns : layer.attributes
  const base = `${fileName(block.title)}-${state.city || 'city'}`
  return (
    <section className="block entity-table" aria-labelledby={`table-${block.id}`}>
      <h2 id={`table-${block.id}`}>{block.title}</h2>
      <DataStatus state={state} />
      <div className="downloads">
        <button type="button" className="button button--secondary" disabled={state.features.length === 0} onClick={() => download(featuresToCsv(state.features, columns), 'text/csv;charset=utf-8', `${base}.csv`)}>
          Download CSV
        </button>
        <button type="button" className="button button--secondary" disabled={state.features.length === 0} onClick={() => download(featuresToGeoJson(state.features), 'application/geo+json', `${base}.geojson`)}>
          Download GeoJSON
        </button>
      </div>
      <FeatureTable
        caption={`${layer.name} (${totalOf(state)})`}
        captionHidden
        features={availableFeatures(state, 'head')}
        total={totalOf(state)}
        columns={columns}
        units={state.meta?.units ?? {}}
        pageSize={block.pageSize ?? 20}
        history={{ layerId, city: state.city }}
        onShow={(feature) => focusFeature(layerId, String(feature.id))}
      />
    </section>
  )
}
