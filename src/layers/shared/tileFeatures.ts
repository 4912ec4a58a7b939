// How a layer's features travel in its vector tiles, for the server that cuts them and the map
// that reads them back (no Node or server imports: the browser bundle has this too).
import type { Feature } from '@/ngsi'

/** The layer name inside each tile (MapLibre's `source-layer`). */
export const TILE_SOURCE_LAYER = 'features'
/** Deepest zoom cut; past it the map over-zooms the last tiles (every point there is on its own). */
export const TILE_MAX_ZOOM = 16
/** What a tile feature carries besides its point: MVT values are scalars, so the alert is split and objects become JSON. */
export type TileProperties = Record<string, string | number | boolean>

/** A feature's properties as a tile carries them: its alert level and message, scalar values (the id is `entityId`'s). */
export function tileProperties(feature: Feature): TileProperties {
  const { alert, ...rest } = feature.properties
  const level = (alert as { level?: unknown } | undefined)?.level
  const message = (alert as { message?: unknown } | undefined)?.message
  // No level is no __alert at all (the map's style falls back to the layer's own colour and shape).
  const properties: TileProperties = typeof level === 'string' ? { __alert: level } : {}
  if (typeof message === 'string') properties.__alertMessage = message
  for (const [name, value] of Object.entries(rest)) {
    if (value === null || value === undefined) continue
    properties[name] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean)
  }
  return properties
}

/** A map's view of a tile feature as a layer feature again (for its popup). */
export function featureFromTile(coordinates: [number, number], properties: Record<string, unknown>): Feature {
  const { __alert, __alertMessage, ...rest } = properties
  const feature: Feature = { type: 'Feature', id: String(rest.entityId), geometry: { type: 'Point', coordinates }, properties: rest as Feature['properties'] }
  if (typeof __alert === 'string') feature.properties.alert = { level: __alert, message: typeof __alertMessage === 'string' ? __alertMessage : '' }
  return feature
}
