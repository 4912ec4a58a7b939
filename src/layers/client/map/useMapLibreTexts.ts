'use client'

import { useTranslations } from 'next-intl'
import { useMemo } from 'react'

/** MapLibre's own texts (controls, the cooperative gestures notice) in the page's language. */
export function useMapLibreTexts(): Record<string, string> {
  const t = useTranslations('map')
  return useMemo(
    () => ({
      'AttributionControl.ToggleAttribution': t('controls.toggleAttribution'),
      'GeolocateControl.FindMyLocation': t('controls.findMyLocation'),
      'GeolocateControl.LocationNotAvailable': t('controls.locationNotAvailable'),
      'Map.Title': t('controls.map'),
      'NavigationControl.ResetBearing': t('controls.resetBearing'),
      'NavigationControl.ZoomIn': t('controls.zoomIn'),
      'NavigationControl.ZoomOut': t('controls.zoomOut'),
      'Popup.Close': t('controls.closePopup'),
      'CooperativeGesturesHandler.WindowsHelpText': t('controls.ctrlScroll'),
      'CooperativeGesturesHandler.MacHelpText': t('controls.cmdScroll'),
      'CooperativeGesturesHandler.MobileHelpText': t('controls.twoFingers'),
    }),
    [t],
  )
}
