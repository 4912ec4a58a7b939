'use client'

import 'maplibre-gl/dist/maplibre-gl.css'

import type { MapLibreEvent } from 'maplibre-gl'
import { useTranslations } from 'next-intl'
import { useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { GeolocateControl, Map, type MapRef, NavigationControl, Popup, ScaleControl } from 'react-map-gl/maplibre'

import { DataLayers, interactiveLayerIds } from '@/layers/client/map/DataLayers'
import { ClusterCounts, PlaceMarker } from '@/layers/client/map/Markers'
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
import { type Basemap, BASEMAP_TIMEOUT_MS, mapboxRequestUrl } from '@/map/style'

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
  const popupContent = popup && popupLayer && feature && (
    <div ref={popupBox} className="map-popup-box" id={popupId} role="dialog" aria-label={t('popupLabel', { name: featureName(feature) })} tabIndex={-1} onKeyDown={onPopupKey}>
      <FeaturePopup feature={feature} layer={popupLayer.layer} units={popupLayer.units} city={popupLayer.city} />
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
        locale={texts}
        // A remote basemap that cannot load (no network, bad token) gives way to the bundled one.
        onError={(event) => onBasemapError((event as { sourceId?: string }).sourceId)}
        onData={(event) => {
          const { sourceId: source, tile } = event as MapLibreEvent & { sourceId?: string; tile?: unknown }
          if (tile && !isDataSource(source)) basemapDrawn()
        }}
        onMoveStart={(event) => {
          if ((event as { originalEvent?: unknown }).originalEvent) readerMovedRef.current = true
        }}
        interactiveLayerIds={interactiveLayerIds(layers)}
        onClick={onClick}
        onIdle={() => {
          labelClusters()
          onDrawn?.()
        }}
        onMoveEnd={(event) => markView(event.target)}
        cursor={popup ? 'auto' : undefined}
        attributionControl={{ compact: true }}
        // No fading in of markers: each fading frame is a full redraw, and a phone's map is ready (idle) only once they are done.
        fadeDuration={0}
        style={{ width: '100%', height: '100%' }}
        // Keyboard: the canvas takes focus; arrows pan, + and - zoom (MapLibre's handlers).
        onLoad={(event) => {
          const instance = event.target
          instance.getCanvas().setAttribute('aria-label', t('canvasLabel', { label }))
          markView(instance)
          mapLoaded()
          // Drawn whole in this frame when its data sources are loaded: `idle` comes one frame later
          // (MapLibre places new symbols once more), which costs a slow phone a few hundred ms.
          if (layers.every(({ layer }) => instance.getSource(sourceId(layer.id)) && instance.isSourceLoaded(sourceId(layer.id)))) onDrawn?.()
        }}
      >
        {fallback !== undefined && (
          <p className="map-offline-note" role="status">
            {fallback === 'configured' ? t('offline.configured') : fallback === 'timeout' ? t('offline.timeout', { seconds: BASEMAP_TIMEOUT_MS / 1000 }) : t('offline.unreachable')}
          </p>
        )}
        <NavigationControl position="top-right" />
        <GeolocateControl position="top-right" trackUserLocation={false} />
        <ScaleControl position="bottom-left" />
        <DataLayers layers={layers} />
        <ClusterCounts labels={clusterLabels} />
        {place && <PlaceMarker key={place.sequence} place={place} />}
        {at && popupContent && !asSheet && (
          // Opens upwards from the place; the map pans so that all of it is inside (usePopup).
          <Popup longitude={at[0]} latitude={at[1]} anchor="bottom" onClose={() => close()} closeOnClick={false} maxWidth="min(300px, calc(100vw - 3rem))">
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
