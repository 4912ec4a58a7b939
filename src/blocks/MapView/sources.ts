// What MapLibre is given of a dashboard layer: the ids of its source and drawn layers, and a
// lean copy of its features.
import type { Feature } from '@/ngsi'

export const sourceId = (layerId: string) => `layer-${layerId}`
export const pointsId = (layerId: string) => `layer-${layerId}-points`
export const clustersId = (layerId: string) => `layer-${layerId}-clusters`

/** A dashboard layer's source, not one of the basemap's. */
export const isDataSource = (id: string | undefined) => Boolean(id?.startsWith('layer-'))

/** MapLibre gets a lean copy: the feature's index (to find the original) and its alert level. */
export function toSourceData(features: Feature[]) {
  return {
    type: 'FeatureCollection' as const,
    features: features.map((feature, index) => {
      const alert = feature.properties.alert as { level?: string } | undefined
      return { type: 'Feature' as const, geometry: feature.geometry, properties: { __index: index, __alert: alert?.level ?? 'none' } }
    }),
  }
}
