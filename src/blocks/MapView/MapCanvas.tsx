'use client'

import 'maplibre-gl/dist/maplibre-gl.css'

import type { ExpressionSpecification, GeoJSONSource } from 'maplibre-gl'
import { version as maplibreVersion } from 'maplibre-gl/package.json'
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
import { displayValue, featureName, observedAgo } from '@/layers/summary'
import { chooseStyle, mapboxRequestUrl, OFFLINE_STYLE, type StyleSetting } from '@/map/style'
import type { Feature } from '@/ngsi'
import type { DashboardLayer } from '@/utilities/dashboard'

import { ALERT_COLOURS } from './colours'

export type CanvasLayer = { layer: DashboardLayer; features: Feature[]; units: Record<string, string>; visible: boolean }

type Props = {
  label: string
  center: { latitude: number; longitude: number; zoom: number }
  style: StyleSetting
  token?: string
  layers: CanvasLayer[]
  /** The map has drawn everything it was given (MapLibre's `idle`). */
  onIdle?: () => void
}

type OpenPopup = { layerId: string; index: number; longitude: number; latitude: number }

type ClusterLabel = { key: string; longitude: number; latitude: number; count: string }

/** Labels are DOM elements: enough for every bubble on a screen, never thousands. */
const MAX_CLUSTER_LABELS = 300

/** Served by src/app/vendor/maplibre-gl-worker.mjs: the bundle cannot find MapLibre's worker by itself. */
const WORKER_URL = `/vendor/maplibre-gl-worker.mjs?v=${maplibreVersion}`

const sourceId = (layerId: string) => `layer-${layerId}`
const pointsId = (layerId: string) => `layer-${layerId}-points`
const clustersId = (layerId: string) => `layer-${layerId}-clusters`

function pointColour(layer: DashboardLayer): string | ExpressionSpecification {
  if (layer.colourBy !== 'alert') return layer.colour
  return ['match', ['get', '__alert'], 'critical', ALERT_COLOURS.critical, 'warning', ALERT_COLOURS.warning, 'info', ALERT_COLOURS.info, layer.colour]
}

/** MapLibre gets a lean copy: the feature's index (to find the original) and its alert level. */
function toSourceData(features: Feature[]) {
  return {
    type: 'FeatureCollection' as const,
    features: features.map((feature, index) => {
      const alert = feature.properties.alert as { level?: string } | undefined
      return { type: 'Feature' as const, geometry: feature.geometry, properties: { __index: index, __alert: alert?.level ?? 'none' } }
    }),
  }
}

const firstPoint = (feature: Feature): [number, number] | undefined =>
  feature.geometry.type === 'Point' ? (feature.geometry.coordinates as [number, number]) : undefined

export default function MapCanvas({ label, center, style, token, layers, onIdle }: Props) {
  const map = useRef<MapRef>(null)
  const { focus } = useDashboard()
  const [mapStyle, setMapStyle] = useState(() => chooseStyle(style, token))
  const [popup, setPopup] = useState<OpenPopup>()
  const sources = useMemo(() => layers.map(({ layer, features }) => ({ id: layer.id, data: toSourceData(features) })), [layers])
  const interactive = layers.filter(({ visible }) => visible).flatMap(({ layer }) => [pointsId(layer.id), ...(layer.cluster ? [clustersId(layer.id)] : [])])

  // A new city (or centre) moves the map there and closes the popup.
  const centerKey = `${center.latitude},${center.longitude},${center.zoom}`
  const [shownCenter, setShownCenter] = useState(centerKey)
  if (shownCenter !== centerKey) {
    setShownCenter(centerKey)
    setPopup(undefined)
  }
  useEffect(() => {
    map.current?.flyTo({ center: [center.longitude, center.latitude], zoom: center.zoom, duration: 800 })
  }, [center.latitude, center.longitude, center.zoom])

  // "Show on map" from a table or an alert: open the feature's popup and go there.
  const focused = focus && layers.find(({ layer }) => layer.id === focus.layerId)
  const focusedIndex = focused ? focused.features.findIndex((feature) => String(feature.id) === focus.featureId) : -1
  const focusedPoint = focusedIndex >= 0 ? firstPoint(focused!.features[focusedIndex]) : undefined
  const [shownFocus, setShownFocus] = useState(focus?.sequence)
  if (focus && focusedPoint && shownFocus !== focus.sequence) {
    setShownFocus(focus.sequence)
    setPopup({ layerId: focus.layerId, index: focusedIndex, longitude: focusedPoint[0], latitude: focusedPoint[1] })
  }
  useEffect(() => {
    if (!focusedPoint) return
    map.current?.flyTo({ center: focusedPoint, zoom: Math.max(map.current.getZoom(), 16), duration: 800 })
    // Only a new request moves the map, not a data refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.sequence])

  const onClick = (event: MapLayerMouseEvent) => {
    const hit = event.features?.[0]
    if (!hit) return setPopup(undefined)
    const layerId = hit.layer.id.replace(/^layer-(.+)-(points|clusters)$/, '$1')
    if (hit.properties?.cluster) {
      const source = map.current?.getSource(sourceId(layerId)) as GeoJSONSource | undefined
      void source?.getClusterExpansionZoom(hit.properties.cluster_id as number).then((zoom) => {
        const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
        map.current?.easeTo({ center: [longitude, latitude], zoom })
      })
      return
    }
    const index = Number(hit.properties?.__index)
    const [longitude, latitude] = (hit.geometry as GeoJSON.Point).coordinates
    setPopup({ layerId, index, longitude, latitude })
  }

  // The counts on cluster bubbles are HTML over the canvas: the offline style has no font glyphs
  // to draw map text with. They are worked out again each time the map settles.
  const [clusterLabels, setClusterLabels] = useState<ClusterLabel[]>([])
  const labelClusters = () => {
    const instance = map.current
    if (!instance) return
    const ids = layers.filter(({ layer, visible }) => layer.cluster && visible).map(({ layer }) => clustersId(layer.id)).filter((id) => instance.getLayer(id))
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
  const popupFeature = popup && popupLayer?.features[popup.index]

  return (
    <Map
      ref={map}
      workerUrl={WORKER_URL}
      initialViewState={center}
      mapStyle={mapStyle}
      transformRequest={(url) => ({ url: mapboxRequestUrl(url, token) })}
      // A remote basemap that cannot load (no network, bad token) must not hide the data.
      onError={() => {
        if (typeof mapStyle === 'string' && !map.current?.getMap().isStyleLoaded()) setMapStyle(OFFLINE_STYLE)
      }}
      interactiveLayerIds={interactive}
      onClick={onClick}
      onIdle={() => {
        labelClusters()
        onIdle?.()
      }}
      cursor={popup ? 'auto' : undefined}
      attributionControl={{ compact: true }}
      style={{ width: '100%', height: '100%' }}
      // Keyboard: the canvas takes focus; arrows pan, + and - zoom (MapLibre's handlers).
      onLoad={(event) => event.target.getCanvas().setAttribute('aria-label', `${label}. Arrow keys pan, plus and minus zoom.`)}
    >
      <NavigationControl position="top-right" />
      <GeolocateControl position="top-right" trackUserLocation={false} />
      <ScaleControl position="bottom-left" />
      {sources.map(({ id, data }) => {
        const { layer, visible } = layers.find((entry) => entry.layer.id === id)!
        const visibility = visible ? 'visible' : 'none'
        return (
          <Source key={id} id={sourceId(id)} type="geojson" data={data} cluster={layer.cluster} clusterRadius={48} clusterMaxZoom={15}>
            {layer.cluster && (
              <Layer
                id={clustersId(id)}
                type="circle"
                filter={['has', 'point_count']}
                layout={{ visibility }}
                paint={{
                  'circle-color': layer.colour,
                  'circle-opacity': 0.8,
                  'circle-radius': ['step', ['get', 'point_count'], 12, 25, 16, 100, 21, 1000, 27],
                  'circle-stroke-color': '#ffffff',
                  'circle-stroke-width': 2,
                }}
              />
            )}
            <Layer
              id={pointsId(id)}
              type="circle"
              filter={['!', ['has', 'point_count']]}
              layout={{ visibility }}
              paint={{
                'circle-color': pointColour(layer),
                'circle-radius': layer.radius,
                'circle-stroke-color': '#ffffff',
                'circle-stroke-width': 1.5,
              }}
            />
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
      {popup && popupLayer && popupFeature && (
        <Popup longitude={popup.longitude} latitude={popup.latitude} onClose={() => setPopup(undefined)} closeOnClick={false} maxWidth="300px">
          <FeaturePopup feature={popupFeature} layer={popupLayer.layer} units={popupLayer.units} />
        </Popup>
      )}
    </Map>
  )
}

/** Entity values are untrusted: React renders them as text, never as HTML. */
function FeaturePopup({ feature, layer, units }: { feature: Feature; layer: DashboardLayer; units: Record<string, string> }) {
  const alert = feature.properties.alert as { level?: string; message?: string } | undefined
  const now = useNow(30_000)
  const ago = observedAgo(feature.properties.observedAt, now)
  return (
    <div className="map-popup">
      <h3>{featureName(feature)}</h3>
      <p className="muted">{layer.name}</p>
      {alert?.message && <p className={`alert alert--${alert.level}`}>{alert.message}</p>}
      <dl>
        {layer.popupAttributes
          .filter((name) => name !== 'name')
          .map((name) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{displayValue(feature.properties[name], units[name]) || '–'}</dd>
            </div>
          ))}
      </dl>
      {ago && <p className="muted">observed {ago}</p>}
    </div>
  )
}

/** The current time, refreshed every `intervalMs` so "N minutes ago" stays true while open. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}
