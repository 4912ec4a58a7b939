'use client'

import 'maplibre-gl/dist/maplibre-gl.css'

import type { MapLibreEvent, Map as MapInstance } from 'maplibre-gl'
import { useTranslations } from 'next-intl'
import { type RefObject, useId, useRef } from 'react'
import { GeolocateControl, Map, type MapRef, NavigationControl, Popup, ScaleControl } from 'react-map-gl/maplibre'

import { DataLayers, interactiveLayerIds } from '@/layers/client/map/DataLayers'
import { ClusterCounts, OfflineNote, PlaceMarker, PopupSheet } from '@/layers/client/map/Overlays'
import { isDataSource, sourceId } from '@/layers/client/map/sources'
import type { CanvasLayer, FoundPlace, MapCenter } from '@/layers/client/map/types'
import { useBasemap } from '@/layers/client/map/useBasemap'
import { useClusterLabels } from '@/layers/client/map/useClusterLabels'
import { useMapLibreTexts } from '@/layers/client/map/useMapLibreTexts'
import { markView, useMapView } from '@/layers/client/map/useMapView'
import { useMarkerImages } from '@/layers/client/map/useMarkerImages'
import { usePopup } from '@/layers/client/map/usePopup'
import { usePopupFeature } from '@/layers/client/map/usePopupFeature'
import { useReaderDevice } from '@/layers/client/map/useReaderDevice'
import { featureName } from '@/layers/shared/format'
import { loadedMapLibre } from '@/map/loadMapLibre'
import { type Basemap, mapboxRequestUrl } from '@/map/style'

import { FeaturePopup } from './FeaturePopup'

export type Props = {
  /** The block's map id: a "Show on map" for this map (mapRegistry.mapFor) opens its popup here. */
  mapId: string
  label: string
  center: MapCenter
  basemap: Basemap
  token?: string
  layers: CanvasLayer[]
  /** An address found by the search: the map goes there and marks it. */
  place?: FoundPlace
  /** The map has drawn everything it was given: at MapLibre's `load` (its first complete frame) when the layers' data was there, else at each `idle` after. */
  onDrawn?: () => void
  /** Where a phone shows the popup, as a sheet below the map (none: always a popup on the map). */
  sheetSlot?: HTMLElement | null
}

type EventsOf = {
  canvasLabel: string
  layers: CanvasLayer[]
  readerMovedRef: RefObject<boolean>
  onBasemapError: (sourceId?: string) => void
  basemapDrawn: () => void
  labelClusters: () => void
  mapLoaded: () => void
  onDrawn?: () => void
}

/** What the map does on MapLibre's events. */
const mapEvents = ({ canvasLabel, layers, readerMovedRef, onBasemapError, basemapDrawn, labelClusters, mapLoaded, onDrawn }: EventsOf) => ({
  // A remote basemap that cannot load (no network, bad token) gives way to the bundled one.
  onError: (event: unknown) => onBasemapError((event as { sourceId?: string }).sourceId),
  onData: (event: unknown) => {
    const { sourceId: source, tile } = event as MapLibreEvent & { sourceId?: string; tile?: unknown }
    if (tile && !isDataSource(source)) basemapDrawn()
  },
  onMoveStart: (event: unknown) => {
    if ((event as { originalEvent?: unknown }).originalEvent) readerMovedRef.current = true
  },
  onIdle: () => {
    labelClusters()
    onDrawn?.()
  },
  onMoveEnd: (event: { target: MapInstance }) => markView(event.target),
  // Keyboard: the canvas takes focus; arrows pan, + and - zoom (MapLibre's handlers).
  onLoad: ({ target: instance }: { target: MapInstance }) => {
    instance.getCanvas().setAttribute('aria-label', canvasLabel)
    markView(instance)
    mapLoaded()
    // Drawn whole in this frame when its data sources are loaded: `idle` comes one frame later
    // (MapLibre places new symbols once more), which costs a slow phone a few hundred ms.
    if (layers.every(({ layer }) => instance.getSource(sourceId(layer.id)) && instance.isSourceLoaded(sourceId(layer.id)))) onDrawn?.()
  },
})

/** The map of a MapView block: the basemap, the layers' points and clusters, a found address, and a popup (a sheet on a phone). */
export default function MapCanvas({ mapId, label, center, basemap, token, layers, place, onDrawn, sheetSlot }: Props) {
  const t = useTranslations('map')
  const mapRef = useRef<MapRef | null>(null)
  const setMap = useMarkerImages(layers, mapRef)
  const { mapStyle, fallback, basemapDrawn, onBasemapError } = useBasemap(basemap)
  const { phone, duration, scrolling } = useReaderDevice()
  const { centerKey, initialView, readerMovedRef, mapLoaded } = useMapView({ mapRef, center, layers, place, duration, scrolling })
  const { popup, popupBox, close, onPopupKey, onClick } = usePopup({ mapRef, mapId, layers, centerKey, readerMovedRef, phone, duration, scrolling })
  const { popupLayer, feature, at } = usePopupFeature(popup, layers)
  const { clusterLabels, labelClusters } = useClusterLabels(mapRef, layers)
  const texts = useMapLibreTexts()
  const popupId = useId()
  const events = mapEvents({ canvasLabel: t('canvasLabel', { label }), layers, readerMovedRef, onBasemapError, basemapDrawn, labelClusters, mapLoaded, onDrawn })
  const popupContent = popup && popupLayer && feature && (
    <div ref={popupBox} className="map-popup-box" id={popupId} role="dialog" aria-label={t('popupLabel', { name: featureName(feature) })} tabIndex={-1} onKeyDown={onPopupKey}>
      <FeaturePopup feature={feature} layer={popupLayer.layer} units={popupLayer.units} city={popupLayer.city} />
    </div>
  )
  const sheet = phone && sheetSlot

  if (!mapStyle) return <div className="map-placeholder">{t('loading')}</div>

  return (
    <>
      <Map
        ref={setMap}
        {...events}
        // Given, not left to react-map-gl: it would import MapLibre's webpack build instead.
        mapLib={loadedMapLibre()}
        initialViewState={initialView}
        mapStyle={mapStyle}
        transformRequest={(url) => ({ url: mapboxRequestUrl(url, token) })}
        // The page scrolls over the map: Ctrl/⌘ + wheel zooms it, two fingers move it on a touch screen.
        cooperativeGestures
        locale={texts}
        interactiveLayerIds={interactiveLayerIds(layers)}
        onClick={onClick}
        cursor={popup ? 'auto' : undefined}
        attributionControl={{ compact: true }}
        // No fading in of markers: each fading frame is a full redraw, and a phone's map is ready (idle) only once they are done.
        fadeDuration={0}
        style={{ width: '100%', height: '100%' }}
      >
        {fallback !== undefined && <OfflineNote fallback={fallback} />}
        <NavigationControl position="top-right" />
        <GeolocateControl position="top-right" trackUserLocation={false} />
        <ScaleControl position="bottom-left" />
        <DataLayers layers={layers} />
        <ClusterCounts labels={clusterLabels} />
        {place && <PlaceMarker key={place.sequence} place={place} />}
        {at && popupContent && !sheet && (
          // Opens upwards from the place; the map pans so that all of it is inside (usePopup).
          <Popup longitude={at[0]} latitude={at[1]} anchor="bottom" onClose={() => close()} closeOnClick={false} maxWidth="min(300px, calc(100vw - 3rem))">
            {popupContent}
          </Popup>
        )}
      </Map>
      {popupContent && sheet && (
        <PopupSheet slot={sheet} onClose={() => close()}>
          {popupContent}
        </PopupSheet>
      )}
    </>
  )
}
