'use client'

import 'maplibre-gl/dist/maplibre-gl.css'

import type { GeoJSONSource, Map as MapInstance, MapLibreEvent } from 'maplibre-gl'
import * as maplibre from 'maplibre-gl'
import { useEffect, useMemo, useRef, useState } from 'react'
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

import { useDashboard } from '@/components/dashboard/DashboardProvider'
import { featureFromTile, TILE_MAX_ZOOM, TILE_SOURCE_LAYER } from '@/layers/shared/tileFeatures'
import { markerImage, markerImageId, MARKER_SHAPES } from '@/map/markers'
import { MAPLIBRE_WORKER_URL } from '@/map/worker'
import { type Basemap, BASEMAP_TIMEOUT_MS, mapboxRequestUrl } from '@/map/style'
import type { Feature } from '@/ngsi'
import type { DashboardLayer } from '@/layers/shared/types'

import { FeaturePopup } from './FeaturePopup'
import { circlePaint, clusterPaint, symbolLayout, symbolPaint } from './paint'
import { clustersId, isDataSource, pointsId, sourceId, toSourceData } from './sources'
import { useBasemap } from './useBasemap'

/** `tiles`: a vector tile URL template for a layer too large to send whole (its `features` are empty). */
export type CanvasLayer = { layer: DashboardLayer; features: Feature[]; tiles?: string; units: Record<string, string>; visible: boolean; city: string }

type Props = {
  label: string
  center: { latitude: number; longitude: number; zoom: number }
  basemap: Basemap
  token?: string
  layers: CanvasLayer[]
  /** An address found by the search: the map goes there and marks it. */
  place?: FoundPlace
  /** The map has drawn everything it was given (MapLibre's `idle`). */
  onIdle?: () => void
}

export type FoundPlace = { label: string; lat: number; lon: number; bounds: [number, number, number, number] | null; sequence: number }

/** `feature`: read from a tile (the browser does not hold a tiled layer's features), else `index` into the layer's. */
type OpenPopup = { layerId: string; index: number; feature?: Feature; longitude: number; latitude: number }

type ClusterLabel = { key: string; longitude: number; latitude: number; count: string }

/** Labels are DOM elements: enough for every bubble on a screen, never thousands. */
const MAX_CLUSTER_LABELS = 300


// MapLibre's workers start as soon as this chunk has run, not when React first creates the map:
// their script compiles while the page renders the map frame and the layers' data.
maplibre.setWorkerUrl(MAPLIBRE_WORKER_URL)
maplibre.prewarm()

function addMarkerImages(instance: MapInstance) {
  for (const shape of MARKER_SHAPES) {
    const id = markerImageId(shape)
    if (!instance.hasImage(id)) instance.addImage(id, markerImage(shape), { sdf: true })
  }
}

const firstPoint = (feature: Feature): [number, number] | undefined =>
  feature.geometry.type === 'Point' ? (feature.geometry.coordinates as [number, number]) : undefined

export default function MapCanvas({ label, center, basemap, token, layers, place, onIdle }: Props) {
  const map = useRef<MapRef>(null)
  const { focus } = useDashboard()
  const { mapStyle, fallback, basemapDrawn, onBasemapError } = useBasemap(basemap)
  const [popup, setPopup] = useState<OpenPopup>()
  const sources = useMemo(() => layers.map(({ layer, features, tiles }) => ({ id: layer.id, tiles, data: toSourceData(features) })), [layers])
  // A tiled layer's tiles come clustered from the server, whatever the layer's own setting.
  const clustered = ({ layer, tiles }: CanvasLayer) => layer.cluster || Boolean(tiles)
  const interactive = layers.filter(({ visible }) => visible).flatMap((entry) => [pointsId(entry.layer.id), ...(clustered(entry) ? [clustersId(entry.layer.id)] : [])])

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
    map.current?.flyTo({ center: [center.longitude, center.latitude], zoom: center.zoom, duration: 800 })
  }, [centerKey, center.latitude, center.longitude, center.zoom])

  // "Show on map" from a table or an alert: open the feature's popup and go there.
  const focused = focus && layers.find(({ layer }) => layer.id === focus.layerId)
  const focusedIndex = focused ? focused.features.findIndex((feature) => String(feature.id) === focus.featureId) : -1
  const focusedFeature = focusedIndex >= 0 ? focused!.features[focusedIndex] : focused && focused.tiles ? focus.feature : undefined
  const focusedPoint = focusedFeature && firstPoint(focusedFeature)
  const [shownFocus, setShownFocus] = useState(focus?.sequence)
  if (focus && focusedPoint && shownFocus !== focus.sequence) {
    setShownFocus(focus.sequence)
    setPopup({ layerId: focus.layerId, index: focusedIndex, feature: focusedIndex >= 0 ? undefined : focusedFeature, longitude: focusedPoint[0], latitude: focusedPoint[1] })
  }
  useEffect(() => {
    if (!focusedPoint) return
    map.current?.flyTo({ center: focusedPoint, zoom: Math.max(map.current.getZoom(), 16), duration: 800 })
    // Only a new request moves the map, not a data refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.sequence])

  useEffect(() => {
    if (!place) return
    // A street's or a district's bounds frame it; a whole region's would lose the city.
    const [west, south, east, north] = place.bounds ?? [0, 0, 360, 180]
    if (east - west < 1 && north - south < 1) map.current?.fitBounds([west, south, east, north], { maxZoom: 17, duration: 800 })
    else map.current?.flyTo({ center: [place.lon, place.lat], zoom: Math.max(map.current.getZoom(), 15), duration: 800 })
  }, [place])

  const onClick = (event: MapLayerMouseEvent) => {
    const hit = event.features?.[0]
    if (!hit) return setPopup(undefined)
    const layerId = hit.layer.id.replace(/^layer-(.+)-(points|clusters)$/, '$1')
    const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
    const tiled = Boolean(layers.find(({ layer }) => layer.id === layerId)?.tiles)
    if (hit.properties?.cluster && tiled) {
      // The server's clusters: two zoom levels closer splits most of them.
      map.current?.easeTo({ center: [longitude, latitude], zoom: Math.min(map.current.getZoom() + 2, TILE_MAX_ZOOM) })
      return
    }
    if (hit.properties?.cluster) {
      const source = map.current?.getSource(sourceId(layerId)) as GeoJSONSource | undefined
      void source?.getClusterExpansionZoom(hit.properties.cluster_id as number).then((zoom) => map.current?.easeTo({ center: [longitude, latitude], zoom }))
      return
    }
    if (tiled) return setPopup({ layerId, index: -1, feature: featureFromTile([longitude, latitude], hit.properties ?? {}), longitude, latitude })
    setPopup({ layerId, index: Number(hit.properties?.__index), longitude, latitude })
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
  const popupFeature = popup && (popup.feature ?? popupLayer?.features[popup.index])

  if (!mapStyle) return <div className="map-placeholder">Loading the map…</div>

  return (
    <Map
      ref={map}
      // Given, not left to react-map-gl: it would import MapLibre only once this map renders, a
      // second download after this chunk's; given here, both arrive together.
      mapLib={maplibre}
      initialViewState={center}
      mapStyle={mapStyle}
      transformRequest={(url) => ({ url: mapboxRequestUrl(url, token) })}
      // A remote basemap that cannot load (no network, bad token) gives way to the bundled one.
      onError={(event) => onBasemapError((event as { sourceId?: string }).sourceId)}
      onData={(event) => {
        const { sourceId, tile } = event as MapLibreEvent & { sourceId?: string; tile?: unknown }
        if (tile && !isDataSource(sourceId)) basemapDrawn()
      }}
      interactiveLayerIds={interactive}
      onClick={onClick}
      onIdle={() => {
        labelClusters()
        onIdle?.()
      }}
      cursor={popup ? 'auto' : undefined}
      attributionControl={{ compact: true }}
      // No fading in of markers: each fading frame is a full redraw, and a phone's map is ready
      // (idle) only once they are done.
      fadeDuration={0}
      style={{ width: '100%', height: '100%' }}
      // Keyboard: the canvas takes focus; arrows pan, + and - zoom (MapLibre's handlers).
      onLoad={(event) => {
        event.target.getCanvas().setAttribute('aria-label', `${label}. Arrow keys pan, plus and minus zoom.`)
        // Marker images are made here, not downloaded; a new style (the fallback) has none, so again.
        const instance = event.target
        addMarkerImages(instance)
        instance.on('style.load', () => addMarkerImages(instance))
        instance.on('styleimagemissing', () => addMarkerImages(instance))
      }}
    >
      {fallback !== undefined && (
        <p className="map-offline-note" role="status">
          {fallback === 'configured'
            ? 'Offline map (Natural Earth): coasts and borders only.'
            : `Offline map: the online basemap ${fallback === 'timeout' ? `did not load within ${BASEMAP_TIMEOUT_MS / 1000} s` : 'cannot be reached'}, so a simplified one (Natural Earth) is shown.`}
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
            <span aria-hidden="true">📍</span>
            <span className="place-pin__label">{place.label}</span>
          </span>
        </Marker>
      )}
      {popup && popupLayer && popupFeature && (
        <Popup longitude={popup.longitude} latitude={popup.latitude} onClose={() => setPopup(undefined)} closeOnClick={false} maxWidth="300px">
          <FeaturePopup feature={popupFeature} layer={popupLayer.layer} units={popupLayer.units} city={popupLayer.city} />
        </Popup>
      )}
    </Map>
  )
}
