import type { Feature } from '@/ngsi'

import type { DashboardLayer } from '../../shared/types'

/** `tiles`: a vector tile URL template for a layer too large to send whole (its `features` are empty). */
export type CanvasLayer = { layer: DashboardLayer; features: Feature[]; tiles?: string; units: Record<string, string>; visible: boolean; city: string }

export type FoundPlace = { label: string; lat: number; lon: number; bounds: [number, number, number, number] | null; sequence: number }

/** The centre a map opens on (a city's) and its zoom. */
export type MapCenter = { latitude: number; longitude: number; zoom: number }

/**
 * What the popup shows: `tile`, a point clicked on a tiled layer's map (the browser does not hold
 * such a layer's features; read for the reader when shown); else the entity `featureId` as the
 * layer's features have it now (pushed changes reach an open popup), or `feature` as it was when
 * opened: one handed over (a tiled layer's table row or alert), or one the layer no longer has.
 */
export type OpenPopup = {
  layerId: string
  featureId?: string
  feature?: Feature
  tile?: { coordinates: [number, number]; properties: Record<string, unknown> }
  longitude: number
  latitude: number
  /** Asked for from outside the map (a table row, an alert): focus goes into the popup, and back there when it closes. */
  returnTo?: HTMLElement | null
}

/** A tiled layer's tiles come clustered from the server, whatever the layer's own setting. */
export const clustered = ({ layer, tiles }: CanvasLayer) => layer.cluster || Boolean(tiles)

export const firstPoint = (feature: Feature): [number, number] | undefined =>
  feature.geometry.type === 'Point' ? (feature.geometry.coordinates as [number, number]) : undefined
