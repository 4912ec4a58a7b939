'use client'

import { useTranslations } from 'next-intl'
import type { ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { Marker } from 'react-map-gl/maplibre'

import { BASEMAP_TIMEOUT_MS } from '@/map/style'

import type { ClusterLabel } from './useClusterLabels'
import type { FoundPlace } from './types'
import type { BasemapFallback } from './useBasemap'

/** The counts on cluster bubbles (see useClusterLabels). */
export function ClusterCounts({ labels }: { labels: ClusterLabel[] }) {
  return labels.map(({ key, longitude, latitude, count }) => (
    <Marker key={key} longitude={longitude} latitude={latitude} anchor="center" style={{ pointerEvents: 'none' }}>
      <span className="cluster-count" aria-hidden="true">
        {count}
      </span>
    </Marker>
  ))
}

/** The address the search found, pinned with its label (keyed by its `sequence` where used: a new search, a new pin). */
export function PlaceMarker({ place }: { place: FoundPlace }) {
  return (
    <Marker longitude={place.lon} latitude={place.lat} anchor="bottom">
      <span className="place-pin" title={place.label}>
        <span className="place-pin__label">{place.label}</span>
        <PinIcon />
      </span>
    </Marker>
  )
}

/** The found place's pin: drawn, not an emoji (which needs an emoji font). */
function PinIcon() {
  return (
    <svg className="place-pin__icon" viewBox="0 0 24 34" width="24" height="34" aria-hidden="true" focusable="false">
      <path d="M12 1C5.9 1 1 5.9 1 12c0 8.3 11 21 11 21s11-12.7 11-21C23 5.9 18.1 1 12 1z" fill="#b3261e" stroke="#ffffff" strokeWidth="2" />
      <circle cx="12" cy="12" r="4.2" fill="#ffffff" />
    </svg>
  )
}

/** Why the map shows the bundled basemap instead of the configured one. */
export function OfflineNote({ fallback }: { fallback: BasemapFallback }) {
  const t = useTranslations('map')
  return (
    <p className="map-offline-note" role="status">
      {fallback === 'configured' ? t('offline.configured') : fallback === 'timeout' ? t('offline.timeout', { seconds: BASEMAP_TIMEOUT_MS / 1000 }) : t('offline.unreachable')}
    </p>
  )
}

/** On a phone, the popup as a sheet below the map (in `slot`), with its own close button. */
export function PopupSheet({ slot, onClose, children }: { slot: HTMLElement; onClose: () => void; children: ReactNode }) {
  const t = useTranslations('map')
  return createPortal(
    <div className="map-sheet">
      <button type="button" className="map-sheet__close" onClick={onClose}>
        <span aria-hidden="true" className="map-sheet__x" />
        {t('closePopup')}
      </button>
      {children}
    </div>,
    slot,
  )
}
