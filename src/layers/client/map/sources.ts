// What MapLibre is given of a dashboard layer: the ids of its source and drawn layers, and a
// lean copy of its features.
import type { Feature } from '@/ngsi'

export const sourceId = (layerId: string) => `layer-${layerId}`
export const pointsId = (layerId: string) => `layer-${layerId}-points`
export const clustersId = (layerId: string) => `layer-${layerId}-clusters`

/** A dashboard layer's source, not one of the basemap's. */
export const isDataSource = (id: string | undefined) => Boolean(id?.startsWith('layer-'))

/**
 * MapLibre gets a lean copy: the entity's id (to find the original: an index would name another
 * entity once a pushed change has removed one before it) and its alert level.
 */
export function toSourceData(features: Feature[]) {
  return {
    type: 'FeatureCollection' as const,
    features: features.map((feature) => {
      const alert = feature.properties.alert as { level?: string } | undefined
      return { type: 'Feature' as const, geometry: feature.geometry, properties: { __id: String(feature.id), __alert: alert?.level ?? 'none' } }
    }),
  }
}
