'use client'

import type { Map as MapInstance } from 'maplibre-gl'
import { type RefObject, useCallback, useState } from 'react'
import type { MapRef } from 'react-map-gl/maplibre'

import { type MarkerImage, markerImage, markerImageId, type MarkerShape, MARKER_SHAPES } from '@/map/markers'

import type { CanvasLayer } from './types'

/** Each shape's image, worked out once a page: the arithmetic is tens of milliseconds on a slow phone. */
const markerImages: Partial<Record<MarkerShape, MarkerImage>> = {}

function addMarkerImage(instance: MapInstance, shape: MarkerShape) {
  const id = markerImageId(shape)
  if (instance.hasImage(id)) return
  instance.addImage(id, (markerImages[shape] ??= markerImage(shape)), { sdf: true })
}

/**
 * The map's ref callback. Marker images are made here, not downloaded: the shapes the layers use
 * are added as soon as the map exists (added when its worker asked, each cost one more frame
 * before the map was ready); any other (the fallback style, a layer's new shape) is given to the
 * style that asks for it. Circles are drawn by MapLibre's circle layer, without an image.
 */
export function useMarkerImages(layers: CanvasLayer[], mapRef: RefObject<MapRef | null>) {
  const [firstShapes] = useState(() => new Set(layers.map(({ layer }) => layer.icon).filter((shape) => shape !== 'circle')))
  return useCallback(
    (ref: MapRef | null) => {
      mapRef.current = ref
      const instance = ref?.getMap()
      if (!instance) return
      instance.setMissingStyleImageResolver((id) => {
        const shape = MARKER_SHAPES.find((candidate) => markerImageId(candidate) === id)
        if (shape) addMarkerImage(instance, shape)
      })
      for (const shape of firstShapes) addMarkerImage(instance, shape)
    },
    [firstShapes, mapRef],
  )
}
