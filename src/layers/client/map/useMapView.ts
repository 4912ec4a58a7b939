'use client'

import { type RefObject, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import type { MapRef } from 'react-map-gl/maplibre'

import { boxOfFeatures, FIT_OPTIONS, fittable, unionOf } from './bounds'
import type { CanvasLayer, FoundPlace, MapCenter } from './types'

type ViewOptions = { mapRef: RefObject<MapRef | null>; center: MapCenter; layers: CanvasLayer[]; place?: FoundPlace; duration: number; scrolling: ScrollBehavior }

/**
 * Where the map looks: the first view of a city shows all its data (fitted once its features are
 * there, not again on each refresh, nor after the reader has moved the map; without data the
 * centre stays); a later change of city flies there; an address found goes there.
 */
export function useMapView({ mapRef, center, layers, place, duration, scrolling }: ViewOptions) {
  const centerKey = `${center.latitude},${center.longitude},${center.zoom}`
  // The map opens where it should (initialViewState); only a later change of city flies it there.
  const openedAt = useRef(centerKey)
  const flyToCenter = useEffectEvent(() => mapRef.current?.flyTo({ center: [center.longitude, center.latitude], zoom: center.zoom, duration }))
  useEffect(() => {
    if (openedAt.current === centerKey) return
    openedAt.current = centerKey
    flyToCenter()
  }, [centerKey])

  const [loaded, setLoaded] = useState(false)
  const readerMovedRef = useRef(false)
  const dataBox = useMemo(() => unionOf(layers.filter(({ visible, tiles }) => visible && !tiles).map(({ features }) => boxOfFeatures(features))), [layers])
  // Data there when the map is made (the usual case: the map waits for the page) is the map's first
  // view: fitted later, the map would fetch and draw its tiles twice before it is ready.
  const [initialView] = useState(() => (dataBox ? { bounds: fittable(dataBox), fitBoundsOptions: FIT_OPTIONS } : center))
  const fittedFor = useRef<string | undefined>(dataBox ? centerKey : undefined)
  useEffect(() => {
    if (!loaded || !dataBox || fittedFor.current === centerKey) return
    fittedFor.current = centerKey
    if (readerMovedRef.current) return
    mapRef.current?.fitBounds(fittable(dataBox), { ...FIT_OPTIONS, duration: 0 })
  }, [loaded, dataBox, centerKey, mapRef])

  const goTo = useEffectEvent((found: FoundPlace) => {
    // A street's or a district's bounds frame it; a whole region's would lose the city.
    const [west, south, east, north] = found.bounds ?? [0, 0, 360, 180]
    if (east - west < 1 && north - south < 1) mapRef.current?.fitBounds([west, south, east, north], { maxZoom: 17, duration })
    else mapRef.current?.flyTo({ center: [found.lon, found.lat], zoom: Math.max(mapRef.current.getZoom(), 15), duration })
    mapRef.current?.getContainer().scrollIntoView({ block: 'nearest', behavior: scrolling })
  })
  useEffect(() => {
    if (place) goTo(place)
  }, [place])

  return { centerKey, initialView, readerMovedRef, mapLoaded: () => setLoaded(true) }
}

/** West, south, east, north and zoom of the view, on the map's element (read by the end-to-end tests: fitted to the data, not zoomed by the wheel). */
export function markView(instance: ReturnType<MapRef['getMap']>) {
  const bounds = instance.getBounds()
  const view = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth(), instance.getZoom()].map((value) => value.toFixed(5)).join(',')
  instance.getContainer().setAttribute('data-view', view)
}
