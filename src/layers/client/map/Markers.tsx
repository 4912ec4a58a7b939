'use client'

import { Marker } from 'react-map-gl/maplibre'

import type { ClusterLabel } from './useClusterLabels'
import type { FoundPlace } from './types'

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
