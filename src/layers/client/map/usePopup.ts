'use client'

import type { GeoJSONSource } from 'maplibre-gl'
import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useCallback, useEffect, useEffectEvent, useRef, useState } from 'react'
import type { MapLayerMouseEvent, MapRef } from 'react-map-gl/maplibre'

import { featureWithId } from '../../shared/format'
import { TILE_MAX_ZOOM } from '../../shared/tileFeatures'
import { useDashboard } from '../DashboardProvider'
import { mapFor } from './mapRegistry'
import { sourceId } from './sources'
import { type CanvasLayer, firstPoint, type OpenPopup } from './types'

/** Room kept between a popup and the map's edges. */
const EDGE = 10

type PopupOptions = {
  mapRef: RefObject<MapRef | null>
  /** The block's map id: a "Show on map" for this map (mapRegistry.mapFor) opens its popup here. */
  mapId: string
  layers: CanvasLayer[]
  centerKey: string
  /** Set when the map goes where the reader asked (the fitted first view must not undo it). */
  readerMovedRef: RefObject<boolean>
  phone: boolean
  duration: number
  scrolling: ScrollBehavior
}

/** The element that has focus now, to give it back when a popup opened from it closes. */
const focusedElement = () => (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null)

/** "Show on map" from a table or an alert: the map it is meant for opens the feature's popup and goes there. */
function useFocusRequests({ mapRef, mapId, layers, readerMovedRef, phone, duration }: PopupOptions, setPopup: (popup: OpenPopup) => void) {
  const { focus } = useDashboard()
  const focused = focus && layers.find(({ layer }) => layer.id === focus.layerId)
  const focusedFeature = focused && (featureWithId(focused.features, focus.featureId) ?? (focused.tiles ? focus.feature : undefined))
  const focusedPoint = focusedFeature && firstPoint(focusedFeature)
  // A request made before this map was drawn (it is made when near the viewport) is answered once it is.
  const [shownFocus, setShownFocus] = useState<number>()
  const [answered, setAnswered] = useState<number>()
  if (focus && focusedPoint && shownFocus !== focus.sequence) {
    setShownFocus(focus.sequence)
    const target = mapFor(focus.layerId)
    if (!target || target === mapId) {
      setAnswered(focus.sequence)
      setPopup({ layerId: focus.layerId, featureId: focus.featureId, feature: focusedFeature, longitude: focusedPoint[0], latitude: focusedPoint[1], returnTo: focusedElement() })
    }
  }
  // Only a new request moves the map, not a data refresh.
  const flyToFocus = useEffectEvent(() => {
    const instance = mapRef.current
    if (!focusedPoint || !instance || answered !== focus?.sequence) return
    // The place asked for, not the fitted first view.
    readerMovedRef.current = true
    // On a wide screen the place goes near the bottom of the map: its popup opens upwards, over the map.
    const below = phone ? 0 : instance.getContainer().clientHeight / 2 - 2 * EDGE
    instance.flyTo({ center: focusedPoint, zoom: Math.max(instance.getZoom(), 16), offset: [0, below], duration })
  })
  useEffect(() => flyToFocus(), [answered])
}

/** A popup on the map stays inside it: the map pans until it fits (again when it grows, as when its chart opens). */
function useKeptInside(mapRef: RefObject<MapRef | null>, popup: OpenPopup | undefined, popupBox: RefObject<HTMLDivElement | null>, scrolling: ScrollBehavior) {
  useEffect(() => {
    const instance = mapRef.current?.getMap()
    const content = popupBox.current
    const shell = content?.closest<HTMLElement>('.maplibregl-popup')
    if (!popup || !instance || !shell) return
    let height = shell.offsetHeight
    let afterMove: (() => void) | undefined
    const fit = (grew = false) => {
      if (instance.isMoving()) {
        if (afterMove) instance.off('moveend', afterMove)
        afterMove = () => fit(grew)
        return void instance.once('moveend', afterMove)
      }
      const frame = instance.getContainer().getBoundingClientRect()
      const box = shell.getBoundingClientRect()
      const dx = box.left < frame.left + EDGE ? box.left - frame.left - EDGE : box.right > frame.right - EDGE ? box.right - frame.right + EDGE : 0
      const dy = box.top < frame.top + EDGE ? box.top - frame.top - EDGE : box.bottom > frame.bottom - EDGE ? box.bottom - frame.bottom + EDGE : 0
      if (Math.abs(dx) > 1 || Math.abs(dy) > 1) instance.panBy([dx, dy], { duration: 0 })
      // Grown (its history opened) past the window's edge: the page brings it into view. Only on
      // growth, so a reader scrolling the page away from an open popup is never pulled back.
      if (grew) requestAnimationFrame(() => shell.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: scrolling }))
    }
    const observer = new ResizeObserver(() => {
      const grew = shell.offsetHeight > height + 1
      height = shell.offsetHeight
      fit(grew)
    })
    observer.observe(content!)
    return () => {
      observer.disconnect()
      if (afterMove) instance.off('moveend', afterMove)
    }
  }, [mapRef, popup, popupBox, scrolling])
}

/** What a click on the map opens: a point's popup, or a cluster opened by zooming in (nothing: the popup closes). */
function clicked(event: MapLayerMouseEvent, { mapRef, layers, phone, duration }: PopupOptions): OpenPopup | 'close' | undefined {
  const hit = event.features?.[0]
  if (!hit) return 'close'
  const layerId = hit.layer.id.replace(/^layer-(.+)-(points|clusters)$/, '$1')
  const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
  const layer = layers.find((entry) => entry.layer.id === layerId)
  const tiled = Boolean(layer?.tiles)
  if (hit.properties?.cluster && tiled) {
    // The server's clusters: two zoom levels closer splits most of them.
    mapRef.current?.easeTo({ center: [longitude, latitude], zoom: Math.min(mapRef.current.getZoom() + 2, TILE_MAX_ZOOM), duration })
    return
  }
  if (hit.properties?.cluster) {
    const source = mapRef.current?.getSource(sourceId(layerId)) as GeoJSONSource | undefined
    void source?.getClusterExpansionZoom(hit.properties.cluster_id as number).then((zoom) => mapRef.current?.easeTo({ center: [longitude, latitude], zoom, duration }))
    return
  }
  // On a phone the popup is a sheet below the map: the place goes to the middle, in view above it.
  if (phone) mapRef.current?.easeTo({ center: [longitude, latitude], duration })
  if (tiled) return { layerId, tile: { coordinates: [longitude, latitude], properties: hit.properties ?? {} }, longitude, latitude }
  const featureId = String(hit.properties?.__id)
  return { layerId, featureId, feature: featureWithId(layer?.features ?? [], featureId), longitude, latitude }
}

/** The map's popup: opened by a click or a "Show on map", focused and kept in view, closed by its button, Escape or a click elsewhere. */
export function usePopup(options: PopupOptions) {
  const { mapRef, centerKey, phone, scrolling } = options
  const [popup, setPopup] = useState<OpenPopup>()
  const popupBox = useRef<HTMLDivElement>(null)
  // A new city (or centre) closes the popup.
  const [shownCenter, setShownCenter] = useState(centerKey)
  if (shownCenter !== centerKey) {
    setShownCenter(centerKey)
    setPopup(undefined)
  }
  useFocusRequests(options, setPopup)
  // A popup asked for from outside takes focus, in view; one opened by a click leaves focus where it is.
  const focusIn = useEffectEvent(() => {
    const box = popupBox.current
    if (!box) return
    box.focus({ preventScroll: true })
    if (phone && box.closest('.map-sheet')) box.scrollIntoView({ block: box.offsetHeight > window.innerHeight ? 'start' : 'nearest', behavior: scrolling })
    else mapRef.current?.getContainer().scrollIntoView({ block: 'center', behavior: scrolling })
  })
  useEffect(() => {
    if (!popup || popup.returnTo === undefined) return
    const frame = requestAnimationFrame(() => focusIn())
    return () => cancelAnimationFrame(frame)
  }, [popup])
  useKeptInside(mapRef, popup, popupBox, scrolling)

  const openPopup = useRef(popup)
  useEffect(() => {
    openPopup.current = popup
  }, [popup])
  /** Closed by its button or Escape: focus goes back where it came from (a click elsewhere on the map leaves it). */
  const close = useCallback(
    (restore = true) => {
      const open = openPopup.current
      if (!open) return
      openPopup.current = undefined
      const inside = popupBox.current?.contains(document.activeElement) ?? false
      setPopup(undefined)
      if (!restore) return
      // Back where it came from; else, if focus was in the popup, to the map.
      if (open.returnTo?.isConnected) open.returnTo.focus()
      else if (inside) mapRef.current?.getCanvas().focus()
    },
    [mapRef],
  )
  const onPopupKey = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Escape') return
    event.stopPropagation()
    close()
  }
  const onClick = (event: MapLayerMouseEvent) => {
    const next = clicked(event, options)
    if (next === 'close') close(false)
    else if (next) setPopup(next)
  }
  return { popup, popupBox, close, onPopupKey, onClick }
}
