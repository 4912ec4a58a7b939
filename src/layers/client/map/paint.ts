// How a dashboard layer's points and cluster bubbles are drawn: MapLibre paint and layout
// expressions over the `__alert` level each point carries (see toSourceData).
import type {
  CircleLayerSpecification,
  DataDrivenPropertyValueSpecification,
  ExpressionSpecification,
  SymbolLayerSpecification,
} from 'maplibre-gl'

import type { DashboardLayer } from '@/layers/shared/types'
import { ALERT_OUTLINES, MARKER_SHAPE_PX, markerImageId } from '@/map/markers'

import { ALERT_COLOURS } from './colours'

type Visibility = 'visible' | 'none'

function pointColour(layer: DashboardLayer): string | ExpressionSpecification {
  if (layer.colourBy !== 'alert') return layer.colour
  return ['match', ['get', '__alert'], 'critical', ALERT_COLOURS.critical, 'warning', ALERT_COLOURS.warning, 'info', ALERT_COLOURS.info, layer.colour]
}

/** Alert levels are told apart by outline (and critical by size) too, whatever the colouring. */
const byAlert = <T extends string | number>(pick: (level: keyof typeof ALERT_OUTLINES) => T) =>
  ['match', ['get', '__alert'], 'critical', pick('critical'), 'warning', pick('warning'), 'info', pick('info'), pick('none')] as DataDrivenPropertyValueSpecification<T>

const markerSize = (layer: DashboardLayer) => {
  const base = (layer.radius * 2) / MARKER_SHAPE_PX
  return byAlert((level) => (level === 'critical' ? base * 1.3 : base))
}

/** A cluster bubble in the layer's colour, larger as it holds more points. */
export const clusterPaint = (layer: DashboardLayer): CircleLayerSpecification['paint'] => ({
  'circle-color': layer.colour,
  'circle-opacity': 0.8,
  'circle-radius': ['step', ['get', 'point_count'], 12, 25, 16, 100, 21, 1000, 27],
  'circle-stroke-color': '#ffffff',
  'circle-stroke-width': 2,
})

/** A point drawn as MapLibre's own circle. */
export const circlePaint = (layer: DashboardLayer): CircleLayerSpecification['paint'] => ({
  'circle-color': pointColour(layer),
  'circle-radius': byAlert((level) => (level === 'critical' ? layer.radius * 1.3 : layer.radius)),
  'circle-stroke-color': byAlert((level) => ALERT_OUTLINES[level].colour),
  'circle-stroke-width': byAlert((level) => ALERT_OUTLINES[level].width),
})

/** A point drawn as the layer's marker image, never hidden by its neighbours. */
export const symbolLayout = (layer: DashboardLayer, visibility: Visibility): SymbolLayerSpecification['layout'] => ({
  visibility,
  'icon-image': markerImageId(layer.icon),
  'icon-size': markerSize(layer),
  'icon-allow-overlap': true,
  'icon-ignore-placement': true,
})

export const symbolPaint = (layer: DashboardLayer): SymbolLayerSpecification['paint'] => ({
  'icon-color': pointColour(layer),
  'icon-halo-color': byAlert((level) => ALERT_OUTLINES[level].colour),
  'icon-halo-width': byAlert((level) => ALERT_OUTLINES[level].width),
})

/** Points with a warning or critical alert: a ring around the marker tells them apart without colour. */
export const ALERT_RING_FILTER: ExpressionSpecification = [
  'all',
  ['!', ['has', 'point_count']],
  ['match', ['get', '__alert'], ['warning', 'critical'], true, false],
]

/** The ring: no fill, a dark line a few pixels outside the marker (wider and further out when critical). */
export const alertRingPaint = (layer: DashboardLayer): CircleLayerSpecification['paint'] => ({
  'circle-opacity': 0,
  'circle-radius': byAlert((level) => (level === 'critical' ? layer.radius * 1.3 + 7 : layer.radius + 5)),
  'circle-stroke-color': ALERT_OUTLINES.critical.colour,
  'circle-stroke-width': byAlert((level) => (level === 'critical' ? 3 : 2)),
  'circle-stroke-opacity': 0.9,
})
