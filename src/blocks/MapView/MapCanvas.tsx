'use client'

import 'maplibre-gl/dist/maplibre-gl.css'

import type { GeoJSONSource, Map as MapInstance, MapLibreEvent } from 'maplibre-gl'
import { useTranslations } from 'next-intl'
import { type KeyboardEvent as ReactKeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import {
  GeolocateControl,
  Layer,
  Map,
  type MapLayerMouseEvent,
  type MapRef,
  Marker,
  NavigationControl,
  Popup,
  ScaleControl,
  Source,
} from 'react-map-gl/maplibre'

import { useDashboard, usePresentation } from '@/components/dashboard/DashboardProvider'
import { DEFAULT_LOCALE } from '@/i18n/locales'
import { readersFeatureFromTile, TILE_MAX_ZOOM, TILE_SOURCE_LAYER } from '@/layers/shared/tileFeatures'
import { type MarkerImage, markerImage, markerImageId, type MarkerShape, MARKER_SHAPES } from '@/map/markers'
import { loadedMapLibre } from '@/map/loadMapLibre'
import { type Basemap, BASEMAP_TIMEOUT_MS, mapboxRequestUrl } from '@/map/style'
import type { Feature } from '@/ngsi'
import { featureName, featureWithId } from '@/layers/shared/format'
import type { DashboardLayer } from '@/layers/shared/types'

import { boxOfFeatures, FIT_OPTIONS, fittable, unionOf } from './bounds'
import { FeaturePopup } from './FeaturePopup'
import { mapFor } from './mapRegistry'
import { ALERT_RING_FILTER, alertRingPaint, circlePaint, clusterPaint, symbolLayout, symbolPaint } from './paint'
import { clustersId, isDataSource, pointsId, sourceId, toSourceData } from './sources'
import { useBasemap } from './useBasemap'

/** `tiles`: a vector tile URL template for a layer too large to send whole (its `features` are empty). */
export type CanvasLayer = { layer: DashboardLayer; features: Feature[]; tiles?: string; units: Record<string, string>; visible: boolean; city: string }

export type Props = {
  /** The block's map id: a "Show on map" for this map (mapRegistry.mapFor) opens its popup here. */
  mapId: string
  label: string
  center: { latitude: number; longitude: number; zoom: number }
  basemap: Basemap
  token?: string
  layers: CanvasLayer[]
  /** An address found by the search: the map goes there and marks it. */
  place?: FoundPlace
  /**
   * The map has drawn everything it was given: at MapLibre's `load` (its first complete frame) when
   * the layers' data was there, else at each `idle` after.
   */
  onDrawn?: () => void
  /** Where a phone shows the popup, as a sheet below the map (none: always a popup on the map). */
  sheetSlot?: HTMLElement | null
}

export type FoundPlace = { label: string; lat: number; lon: number; bounds: [number, number, number, number] | null; sequence: number }

/**
 * What the popup shows: `tile`, a point clicked on a tiled layer's map (the browser does not hold
 * such a layer's features; read for the reader when shown); else the entity `featureId` as the
 * layer's features have it now (pushed changes reach an open popup), or `feature` as it was when
 * opened: one handed over (a tiled layer's table row or alert), or one the layer no longer has.
 */
type OpenPopup = {
  layerId: string
  featureId?: string
  feature?: Feature
  tile?: { coordinates: [number, number]; properties: Record<string, unknown> }
  longitude: number
  latitude: number
  /** Asked for from outside the map (a table row, an alert): focus goes into the popup, and back there when it closes. */
  returnTo?: HTMLElement | null
}

type ClusterLabel = { key: string; longitude: number; latitude: number; count: string }

/** Labels are DOM elements: enough for every bubble on a screen, never thousands. */
const MAX_CLUSTER_LABELS = 300

/** Each shape's image, worked out once a page: the arithmetic is tens of milliseconds on a slow phone. */
const markerImages: Partial<Record<MarkerShape, MarkerImage>> = {}

function addMarkerImage(instance: MapInstance, shape: MarkerShape) {
  const id = markerImageId(shape)
  if (instance.hasImage(id)) return
  instance.addImage(id, (markerImages[shape] ??= markerImage(shape)), { sdf: true })
}

const firstPoint = (feature: Feature): [number, number] | undefined =>
  feature.geometry.type === 'Point' ? (feature.geometry.coordinates as [number, number]) : undefined

/** Below this width the popup is a sheet under the map: on a phone's map a popup would be cut off or hide the map. */
const PHONE_QUERY = '(max-width: 600px)'
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)'
/** Room kept between a popup and the map's edges. */
const EDGE = 10

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches)
  useEffect(() => {
    const list = window.matchMedia(query)
    const changed = () => setMatches(list.matches)
    changed()
    list.addEventListener('change', changed)
    return () => list.removeEventListener('change', changed)
  }, [query])
  return matches
}

/** West, south, east, north and zoom of the view, on the map's element. */
function markView(instance: MapInstance) {
  const bounds = instance.getBounds()
  const view = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth(), instance.getZoom()].map((value) => value.toFixed(5)).join(',')
  instance.getContainer().setAttribute('data-view', view)
}

/** The element that has focus now, to give it back when a popup opened from it closes. */
const focusedElement = () => (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null)

export default function MapCanvas({ mapId, label, center, basemap, token, layers, place, onDrawn, sheetSlot }: Props) {
  const t = useTranslations('map')
  const map = useRef<MapRef | null>(null)
  // Marker images are made here, not downloaded. The shapes the layers use are added as soon as the
  // map exists (added when its worker asked, each cost one more frame before the map was ready); any
  // other (the fallback style, a layer's new shape) is given to the style that asks for it. Circles
  // are drawn by MapLibre's circle layer, without an image.
  const [firstShapes] = useState(() => new Set(layers.map(({ layer }) => layer.icon).filter((shape) => shape !== 'circle')))
  const setMap = useCallback((ref: MapRef | null) => {
    map.current = ref
    const instance = ref?.getMap()
    if (!instance) return
    instance.setMissingStyleImageResolver((id) => {
      const shape = MARKER_SHAPES.find((candidate) => markerImageId(candidate) === id)
      if (shape) addMarkerImage(instance, shape)
    })
    for (const shape of firstShapes) addMarkerImage(instance, shape)
  }, [firstShapes])
  const { focus } = useDashboard()
  const { mapStyle, fallback, basemapDrawn, onBasemapError } = useBasemap(basemap)
  const [popup, setPopup] = useState<OpenPopup>()
  const popupBox = useRef<HTMLDivElement>(null)
  const popupId = useId()
  const phone = useMediaQuery(PHONE_QUERY)
  const still = useMediaQuery(REDUCED_MOTION_QUERY)
  // No animated flights for readers who asked for less motion.
  const duration = still ? 0 : 800
  const scrolling: ScrollBehavior = still ? 'auto' : 'smooth'
  const sources = useMemo(() => layers.map(({ layer, features, tiles }) => ({ id: layer.id, tiles, data: toSourceData(features) })), [layers])
  // A tiled layer's tiles come clustered from the server, whatever the layer's own setting.
  const clustered = ({ layer, tiles }: CanvasLayer) => layer.cluster || Boolean(tiles)
  const interactive = layers.filter(({ visible }) => visible).flatMap((entry) => [pointsId(entry.layer.id), ...(clustered(entry) ? [clustersId(entry.layer.id)] : [])])
  // MapLibre's own texts (controls, the cooperative gestures notice) in the page's language.
  const locale = useMemo(
    () => ({
      'AttributionControl.ToggleAttribution': t('controls.toggleAttribution'),
      'GeolocateControl.FindMyLocation': t('controls.findMyLocation'),
      'GeolocateControl.LocationNotAvailable': t('controls.locationNotAvailable'),
      'Map.Title': t('controls.map'),
      'NavigationControl.ResetBearing': t('controls.resetBearing'),
      'NavigationControl.ZoomIn': t('controls.zoomIn'),
      'NavigationControl.ZoomOut': t('controls.zoomOut'),
      'Popup.Close': t('controls.closePopup'),
      'CooperativeGesturesHandler.WindowsHelpText': t('controls.ctrlScroll'),
      'CooperativeGesturesHandler.MacHelpText': t('controls.cmdScroll'),
      'CooperativeGesturesHandler.MobileHelpText': t('controls.twoFingers'),
    }),
    [t],
  )

  // A new city (or centre) moves the map there and closes the popup.
  const centerKey = `${center.latitude},${center.longitude},${center.zoom}`
  const [shownCenter, setShownCenter] = useState(centerKey)
  if (shownCenter !== centerKey) {
    setShownCenter(centerKey)
    setPopup(undefined)
  }
  // The map opens where it should (initialViewState); only a later change of city flies it there.
  const openedAt = useRef(centerKey)
  useEffect(() => {
    if (openedAt.current === centerKey) return
    openedAt.current = centerKey
    map.current?.flyTo({ center: [center.longitude, center.latitude], zoom: center.zoom, duration })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [centerKey, center.latitude, center.longitude, center.zoom])

  // The first view of a city shows all its data: fitted once its features are there, not again on
  // each refresh, nor after the reader has moved the map. Without data the centre stays.
  const [loaded, setLoaded] = useState(false)
  const readerMoved = useRef(false)
  const dataBox = useMemo(() => unionOf(layers.filter(({ visible, tiles }) => visible && !tiles).map(({ features }) => boxOfFeatures(features))), [layers])
  // Data there when the map is made (the usual case: the map waits for the page) is the map's first
  // view: fitted later, the map would fetch and draw its tiles twice before it is ready.
  const [initialView] = useState(() => (dataBox ? { bounds: fittable(dataBox), fitBoundsOptions: FIT_OPTIONS } : center))
  const fittedFor = useRef<string | undefined>(dataBox ? centerKey : undefined)
  useEffect(() => {
    if (!loaded || !dataBox || fittedFor.current === centerKey) return
    fittedFor.current = centerKey
    if (readerMoved.current) return
    map.current?.fitBounds(fittable(dataBox), { ...FIT_OPTIONS, duration: 0 })
  }, [loaded, dataBox, centerKey])

  // "Show on map" from a table or an alert: the map it is meant for opens the feature's popup and goes there.
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
      setPopup({
        layerId: focus.layerId,
        featureId: focus.featureId,
        feature: focusedFeature,
        longitude: focusedPoint[0],
        latitude: focusedPoint[1],
        returnTo: focusedElement(),
      })
    }
  }
  useEffect(() => {
    const instance = map.current
    if (!focusedPoint || !instance || answered !== focus?.sequence) return
    // The place asked for, not the fitted first view.
    readerMoved.current = true
    // On a wide screen the place goes near the bottom of the map: its popup opens upwards, over the map.
    const below = phone ? 0 : instance.getContainer().clientHeight / 2 - 2 * EDGE
    instance.flyTo({ center: focusedPoint, zoom: Math.max(instance.getZoom(), 16), offset: [0, below], duration })
    // Only a new request moves the map, not a data refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answered])

  useEffect(() => {
    if (!place) return
    // A street's or a district's bounds frame it; a whole region's would lose the city.
    const [west, south, east, north] = place.bounds ?? [0, 0, 360, 180]
    if (east - west < 1 && north - south < 1) map.current?.fitBounds([west, south, east, north], { maxZoom: 17, duration })
    else map.current?.flyTo({ center: [place.lon, place.lat], zoom: Math.max(map.current.getZoom(), 15), duration })
    map.current?.getContainer().scrollIntoView({ block: 'nearest', behavior: scrolling })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [place])

  // A popup asked for from outside takes focus, in view; one opened by a click leaves focus where it is.
  useEffect(() => {
    if (!popup || popup.returnTo === undefined) return
    const frame = requestAnimationFrame(() => {
      const box = popupBox.current
      if (!box) return
      box.focus({ preventScroll: true })
      if (phone && box.closest('.map-sheet')) {
        box.scrollIntoView({ block: box.offsetHeight > window.innerHeight ? 'start' : 'nearest', behavior: scrolling })
      } else {
        map.current?.getContainer().scrollIntoView({ block: 'center', behavior: scrolling })
      }
    })
    return () => cancelAnimationFrame(frame)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [popup])

  // A popup on the map stays inside it: the map pans until it fits (again when it grows, as when its chart opens).
  useEffect(() => {
    const instance = map.current?.getMap()
    const content = popupBox.current
    if (!popup || !instance || !content || !content.closest('.maplibregl-popup')) return
    const shell = content.closest('.maplibregl-popup') as HTMLElement
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
    observer.observe(content)
    return () => {
      observer.disconnect()
      if (afterMove) instance.off('moveend', afterMove)
    }
  }, [popup, phone, scrolling])

  const openPopup = useRef(popup)
  useEffect(() => {
    openPopup.current = popup
  }, [popup])
  /** Closed by its button or Escape: focus goes back where it came from (a click elsewhere on the map leaves it). */
  const close = useCallback((restore = true) => {
    const open = openPopup.current
    if (!open) return
    openPopup.current = undefined
    const inside = popupBox.current?.contains(document.activeElement) ?? false
    setPopup(undefined)
    if (!restore) return
    // Back where it came from; else, if focus was in the popup, to the map.
    if (open.returnTo?.isConnected) open.returnTo.focus()
    else if (inside) map.current?.getCanvas().focus()
  }, [])
  const onPopupKey = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Escape') return
    event.stopPropagation()
    close()
  }

  const onClick = (event: MapLayerMouseEvent) => {
    const hit = event.features?.[0]
    if (!hit) return close(false)
    const layerId = hit.layer.id.replace(/^layer-(.+)-(points|clusters)$/, '$1')
    const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
    const clicked = layers.find(({ layer }) => layer.id === layerId)
    const tiled = Boolean(clicked?.tiles)
    if (hit.properties?.cluster && tiled) {
      // The server's clusters: two zoom levels closer splits most of them.
      map.current?.easeTo({ center: [longitude, latitude], zoom: Math.min(map.current.getZoom() + 2, TILE_MAX_ZOOM), duration })
      return
    }
    if (hit.properties?.cluster) {
      const source = map.current?.getSource(sourceId(layerId)) as GeoJSONSource | undefined
      void source?.getClusterExpansionZoom(hit.properties.cluster_id as number).then((zoom) => map.current?.easeTo({ center: [longitude, latitude], zoom, duration }))
      return
    }
    // On a phone the popup is a sheet below the map: the place goes to the middle, in view above it.
    if (phone) map.current?.easeTo({ center: [longitude, latitude], duration })
    if (tiled) return setPopup({ layerId, tile: { coordinates: [longitude, latitude], properties: hit.properties ?? {} }, longitude, latitude })
    const featureId = String(hit.properties?.__id)
    setPopup({ layerId, featureId, feature: featureWithId(clicked?.features ?? [], featureId), longitude, latitude })
  }

  // The counts on cluster bubbles are HTML over the canvas: the offline style has no font glyphs
  // to draw map text with. They are worked out again each time the map settles.
  const [clusterLabels, setClusterLabels] = useState<ClusterLabel[]>([])
  const labelClusters = () => {
    const instance = map.current
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

  const popupLayer = popup && layers.find(({ layer }) => layer.id === popup.layerId)
  // As the popup writes the layer's values: a tile's alert message is written with it, in the reader's language.
  const popupPresentation = usePresentation(popupLayer?.layer.id, { city: popupLayer?.city, units: popupLayer?.units })
  const tile = popup?.tile
  const alertTexts = popupLayer?.layer.alertTexts
  const tileFeature = useMemo(() => tile && readersFeatureFromTile(tile.coordinates, tile.properties, alertTexts, popupPresentation, [DEFAULT_LOCALE]), [tile, alertTexts, popupPresentation])
  const popupFeatures = popupLayer?.features
  const featureId = popup?.featureId
  const currentFeature = useMemo(() => (featureId === undefined ? undefined : popupFeatures && featureWithId(popupFeatures, featureId)), [popupFeatures, featureId])
  const popupFeature = popup && (tileFeature ?? currentFeature ?? popup.feature)
  // A station that moves (a pushed new location) takes its popup along.
  const popupAt = popup && ((currentFeature && firstPoint(currentFeature)) ?? [popup.longitude, popup.latitude])
  const popupContent = popup && popupLayer && popupFeature && (
    <div
      ref={popupBox}
      className="map-popup-box"
      id={popupId}
      role="dialog"
      aria-label={t('popupLabel', { name: featureName(popupFeature) })}
      tabIndex={-1}
      onKeyDown={onPopupKey}
    >
      <FeaturePopup feature={popupFeature} layer={popupLayer.layer} units={popupLayer.units} city={popupLayer.city} />
    </div>
  )
  const asSheet = phone && sheetSlot

  if (!mapStyle) return <div className="map-placeholder">{t('loading')}</div>

  return (
    <>
      <Map
        ref={setMap}
        // Given, not left to react-map-gl: it would import MapLibre's webpack build instead.
        mapLib={loadedMapLibre()}
        initialViewState={initialView}
        mapStyle={mapStyle}
        transformRequest={(url) => ({ url: mapboxRequestUrl(url, token) })}
        // The page scrolls over the map: Ctrl/⌘ + wheel zooms it, two fingers move it on a touch screen.
        cooperativeGestures
        locale={locale}
        // A remote basemap that cannot load (no network, bad token) gives way to the bundled one.
        onError={(event) => onBasemapError((event as { sourceId?: string }).sourceId)}
        onData={(event) => {
          const { sourceId, tile } = event as MapLibreEvent & { sourceId?: string; tile?: unknown }
          if (tile && !isDataSource(sourceId)) basemapDrawn()
        }}
        onMoveStart={(event) => {
          if ((event as { originalEvent?: unknown }).originalEvent) readerMoved.current = true
        }}
        interactiveLayerIds={interactive}
        onClick={onClick}
        onIdle={() => {
          labelClusters()
          onDrawn?.()
        }}
        // What the map shows, on its element (read by the end-to-end tests: fitted to the data, not zoomed by the wheel).
        onMoveEnd={(event) => markView(event.target)}
        cursor={popup ? 'auto' : undefined}
        attributionControl={{ compact: true }}
        // No fading in of markers: each fading frame is a full redraw, and a phone's map is ready
        // (idle) only once they are done.
        fadeDuration={0}
        style={{ width: '100%', height: '100%' }}
        // Keyboard: the canvas takes focus; arrows pan, + and - zoom (MapLibre's handlers).
        onLoad={(event) => {
          event.target.getCanvas().setAttribute('aria-label', t('canvasLabel', { label }))
          const instance = event.target
          markView(instance)
          setLoaded(true)
          // Drawn whole in this frame when its data sources are loaded: `idle` comes one frame later
          // (MapLibre places new symbols once more), which costs a slow phone a few hundred ms.
          if (sources.every(({ id }) => instance.getSource(sourceId(id)) && instance.isSourceLoaded(sourceId(id)))) onDrawn?.()
        }}
      >
        {fallback !== undefined && (
          <p className="map-offline-note" role="status">
            {fallback === 'configured'
              ? t('offline.configured')
              : fallback === 'timeout'
                ? t('offline.timeout', { seconds: BASEMAP_TIMEOUT_MS / 1000 })
                : t('offline.unreachable')}
          </p>
        )}
        <NavigationControl position="top-right" />
        <GeolocateControl position="top-right" trackUserLocation={false} />
        <ScaleControl position="bottom-left" />
        {sources.map(({ id, tiles, data }) => {
          const entry = layers.find((candidate) => candidate.layer.id === id)!
          const { layer, visible } = entry
          const visibility = visible ? 'visible' : 'none'
          const fromTiles = tiles ? { 'source-layer': TILE_SOURCE_LAYER } : {}
          // An array, not a fragment: <Source> hands its id to its direct children only.
          const drawn = [
            // Alerting points get a ring: their level is not told by colour alone.
            <Layer {...fromTiles} key="ring" id={`${pointsId(id)}-alert-ring`} type="circle" filter={ALERT_RING_FILTER} layout={{ visibility }} paint={alertRingPaint(layer)} />,
            clustered(entry) && (
              <Layer
                {...fromTiles}
                key="clusters"
                id={clustersId(id)}
                type="circle"
                filter={['has', 'point_count']}
                layout={{ visibility }}
                paint={clusterPaint(layer)}
              />
            ),
            layer.icon === 'circle' ? (
              // Circles are MapLibre's own: no icon layout in the worker, the fastest way to draw many points.
              <Layer
                {...fromTiles}
                key="circle"
                id={pointsId(id)}
                type="circle"
                filter={['!', ['has', 'point_count']]}
                layout={{ visibility }}
                paint={circlePaint(layer)}
              />
            ) : (
              <Layer
                {...fromTiles}
                key="symbol"
                id={pointsId(id)}
                type="symbol"
                filter={['!', ['has', 'point_count']]}
                layout={symbolLayout(layer, visibility)}
                paint={symbolPaint(layer)}
              />
            ),
          ]
          // A layer that grows past the tile threshold is another kind of source: a new one, not an update.
          return tiles ? (
            <Source key={`${id}-tiles`} id={sourceId(id)} type="vector" tiles={[tiles]} maxzoom={TILE_MAX_ZOOM}>
              {drawn}
            </Source>
          ) : (
            <Source key={id} id={sourceId(id)} type="geojson" data={data} cluster={layer.cluster} clusterRadius={48} clusterMaxZoom={15}>
              {drawn}
            </Source>
          )
        })}
        {clusterLabels.map(({ key, longitude, latitude, count }) => (
          <Marker key={key} longitude={longitude} latitude={latitude} anchor="center" style={{ pointerEvents: 'none' }}>
            <span className="cluster-count" aria-hidden="true">
              {count}
            </span>
          </Marker>
        ))}
        {place && (
          <Marker key={place.sequence} longitude={place.lon} latitude={place.lat} anchor="bottom">
            <span className="place-pin" title={place.label}>
              <span className="place-pin__label">{place.label}</span>
              <PinIcon />
            </span>
          </Marker>
        )}
        {popupAt && popupContent && !asSheet && (
          // Opens upwards from the place; the map pans so that all of it is inside (see above).
          <Popup longitude={popupAt[0]} latitude={popupAt[1]} anchor="bottom" onClose={() => close()} closeOnClick={false} maxWidth="min(300px, calc(100vw - 3rem))">
            {popupContent}
          </Popup>
        )}
      </Map>
      {popupContent && asSheet
        ? createPortal(
            <div className="map-sheet">
              <button type="button" className="map-sheet__close" onClick={() => close()}>
                <span aria-hidden="true" className="map-sheet__x" />
                {t('closePopup')}
              </button>
              {popupContent}
            </div>,
            sheetSlot,
          )
        : null}
    </>
  )
}

/** The found place's pin: drawn, not an emoji (which needs an emoji font). */
function PinIcon() {
  return (
    <svg className="place-pin__icon" viewBox="0 0 24 34" width="24" height="34" aria-hidden="true" focusable="false">
      <path d="M12 1C5.9 1 1 5.9 1 12c0 8.3 11 21 11 21s11-12.7 11-21C23 5.9 18.1 1 12 1z" fill="#b3261e" stroke="#ffffff" strokeWidth="2" />
      <circle cx="12" cy="12" r="4.2" fill="#ffffff" />
    </svg>
  )
}
