// How a layer's features travel in its vector tiles, for the server that cuts them and the map
// that reads them back (no Node or server imports: the browser bundle has this too).
import type { Feature } from '@/ngsi'

import { alertInLanguage } from './alertTexts'
import { inLanguage } from './languages'
import type { Presentation } from './presentation'
import type { AlertText } from './types'

/** The layer name inside each tile (MapLibre's `source-layer`). */
export const TILE_SOURCE_LAYER = 'features'
/** Deepest zoom cut; past it the map over-zooms the last tiles (every point there is on its own). */
export const TILE_MAX_ZOOM = 16
/** What a tile feature carries besides its point: MVT values are scalars, so the alert is split and objects become JSON. */
export type TileProperties = Record<string, string | number | boolean>

type FeatureAlert = { level?: unknown; message?: unknown; rule?: unknown; value?: unknown }

const isScalar = (value: unknown): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

/**
 * A feature's properties as a tile carries them: its alert split into scalars (level, message, and
 * the rule that fired with its value, for a reader of another language: src/layers/shared/alertTexts.ts),
 * then its own values, scalars as they are and objects as JSON (the id is `entityId`'s).
 */
export function tileProperties(feature: Feature): TileProperties {
  const { alert, ...rest } = feature.properties
  const { level, message, rule, value } = (alert ?? {}) as FeatureAlert
  // No level is no __alert at all (the map's style falls back to the layer's own colour and shape).
  const properties: TileProperties = typeof level === 'string' ? { __alert: level } : {}
  if (typeof message === 'string') properties.__alertMessage = message
  if (typeof rule === 'number' && Number.isInteger(rule) && rule >= 0) properties.__alertRule = rule
  if (isScalar(value)) properties.__alertValue = value
  for (const [name, value] of Object.entries(rest)) {
    if (value === null || value === undefined) continue
    properties[name] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean)
  }
  return properties
}

/** A map's view of a tile feature as a layer feature again (its alert as the server wrote it: the default language). */
export function featureFromTile(coordinates: [number, number], properties: Record<string, unknown>): Feature {
  const { __alert, __alertMessage, __alertRule, __alertValue, ...rest } = properties
  const feature: Feature = { type: 'Feature', id: String(rest.entityId), geometry: { type: 'Point', coordinates }, properties: rest as Feature['properties'] }
  if (typeof __alert === 'string') {
    const alert: FeatureAlert = { level: __alert, message: typeof __alertMessage === 'string' ? __alertMessage : '' }
    if (typeof __alertRule === 'number') alert.rule = __alertRule
    if (isScalar(__alertValue)) alert.value = __alertValue
    feature.properties.alert = alert as Feature['properties'][string]
  }
  return feature
}

/**
 * A tile feature as its popup shows it to this reader: a layer feature again, its texts held in
 * several languages in the reader's (else in one of `fallbacks`), and its alert message in the
 * reader's language (`texts`: the layer's DashboardLayer.alertTexts, given only to readers of
 * another language than the default) by the one rule of alertInLanguage.
 */
export function readersFeatureFromTile(
  coordinates: [number, number],
  properties: Record<string, unknown>,
  texts: readonly AlertText[] | undefined,
  presentation: Presentation,
  fallbacks: readonly string[] = [],
): Feature {
  const feature = inLanguage(featureFromTile(coordinates, properties), presentation.settings.locale, fallbacks)
  return alertInLanguage(feature, texts, presentation)
}
