'use client'

import { type RefObject, useState } from 'react'
import type { MapRef } from 'react-map-gl/maplibre'

import { clustersId } from './sources'
import { type CanvasLayer, clustered } from './types'

export type ClusterLabel = { key: string; longitude: number; latitude: number; count: string }

/** Labels are DOM elements: enough for every bubble on a screen, never thousands. */
const MAX_CLUSTER_LABELS = 300

/**
 * The counts on cluster bubbles, as HTML over the canvas: the offline style has no font glyphs to
 * draw map text with. `labelClusters` works them out again (each time the map settles).
 */
export function useClusterLabels(mapRef: RefObject<MapRef | null>, layers: CanvasLayer[]) {
  const [clusterLabels, setClusterLabels] = useState<ClusterLabel[]>([])
  const labelClusters = () => {
    const instance = mapRef.current
    if (!instance) return
    const ids = layers.filter((entry) => clustered(entry) && entry.visible).map(({ layer }) => clustersId(layer.id)).filter((id) => instance.getLayer(id))
    if (ids.length === 0) return setClusterLabels((previous) => (previous.length === 0 ? previous : []))
    const seen = new Set<string>()
    const labels: ClusterLabel[] = []
    for (const hit of instance.queryRenderedFeatures({ layers: ids })) {
      const key = `${hit.layer.id}:${String(hit.properties?.cluster_id)}`
      if (seen.has(key) || labels.length >= MAX_CLUSTER_LABELS) continue
      seen.add(key)
      const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
      labels.push({ key, longitude, latitude, count: String(hit.properties?.point_count_abbreviated ?? hit.properties?.point_count) })
    }
    setClusterLabels(labels)
  }
  return { clusterLabels, labelClusters }
}
