'use client'

import { useMemo } from 'react'
import { Layer, Source } from 'react-map-gl/maplibre'

import { TILE_MAX_ZOOM, TILE_SOURCE_LAYER } from '../../shared/tileFeatures'
import { ALERT_RING_FILTER, alertRingPaint, circlePaint, clusterPaint, symbolLayout, symbolPaint } from './paint'
import { clustersId, pointsId, sourceId, toSourceData } from './sources'
import { type CanvasLayer, clustered } from './types'

/** The drawn layers a click can hit: each visible layer's points, and its clusters. */
export const interactiveLayerIds = (layers: CanvasLayer[]) =>
  layers.filter(({ visible }) => visible).flatMap((entry) => [pointsId(entry.layer.id), ...(clustered(entry) ? [clustersId(entry.layer.id)] : [])])

/** The map's sources and drawn layers for the dashboard's layers: GeoJSON of the features, or the server's vector tiles. */
export function DataLayers({ layers }: { layers: CanvasLayer[] }) {
  const sources = useMemo(() => layers.map((entry) => ({ entry, data: toSourceData(entry.features) })), [layers])
  return sources.map(({ entry, data }) => {
    const { layer, visible, tiles } = entry
    const id = layer.id
    const visibility = visible ? 'visible' : 'none'
    const fromTiles = tiles ? { 'source-layer': TILE_SOURCE_LAYER } : {}
    // An array, not a fragment: <Source> hands its id to its direct children only.
    const drawn = [
      // Alerting points get a ring: their level is not told by colour alone.
      <Layer {...fromTiles} key="ring" id={`${pointsId(id)}-alert-ring`} type="circle" filter={ALERT_RING_FILTER} layout={{ visibility }} paint={alertRingPaint(layer)} />,
      clustered(entry) && (
        <Layer {...fromTiles} key="clusters" id={clustersId(id)} type="circle" filter={['has', 'point_count']} layout={{ visibility }} paint={clusterPaint(layer)} />
      ),
      layer.icon === 'circle' ? (
        // Circles are MapLibre's own: no icon layout in the worker, the fastest way to draw many points.
        <Layer {...fromTiles} key="circle" id={pointsId(id)} type="circle" filter={['!', ['has', 'point_count']]} layout={{ visibility }} paint={circlePaint(layer)} />
      ) : (
        <Layer {...fromTiles} key="symbol" id={pointsId(id)} type="symbol" filter={['!', ['has', 'point_count']]} layout={symbolLayout(layer, visibility)} paint={symbolPaint(layer)} />
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
  })
}
