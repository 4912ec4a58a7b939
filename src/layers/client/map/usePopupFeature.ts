'use client'

import { useMemo } from 'react'

import { DEFAULT_LOCALE } from '@/i18n/locales'

import { featureWithId } from '../../shared/format'
import { readersFeatureFromTile } from '../../shared/tileFeatures'
import { usePresentation } from '../DashboardProvider'
import { type CanvasLayer, firstPoint, type OpenPopup } from './types'

/**
 * What an open popup shows: its layer, the feature (a tile's point read for the reader, else the
 * entity as the layer has it now, else as it was when opened) and where (a station that moves, by
 * a pushed new location, takes its popup along).
 */
export function usePopupFeature(popup: OpenPopup | undefined, layers: CanvasLayer[]) {
  const popupLayer = popup && layers.find(({ layer }) => layer.id === popup.layerId)
  // As the popup writes the layer's values: a tile's alert message is written with it, in the reader's language.
  const presentation = usePresentation(popupLayer?.layer.id, { city: popupLayer?.city, units: popupLayer?.units })
  const tile = popup?.tile
  const alertTexts = popupLayer?.layer.alertTexts
  const tileFeature = useMemo(() => tile && readersFeatureFromTile(tile.coordinates, tile.properties, alertTexts, presentation, [DEFAULT_LOCALE]), [tile, alertTexts, presentation])
  const features = popupLayer?.features
  const featureId = popup?.featureId
  const currentFeature = useMemo(() => (featureId === undefined ? undefined : features && featureWithId(features, featureId)), [features, featureId])
  const feature = popup && (tileFeature ?? currentFeature ?? popup.feature)
  const at = popup && ((currentFeature && firstPoint(currentFeature)) ?? [popup.longitude, popup.latitude])
  return { popupLayer, feature, at }
}
