'use client'

import { availableFeatures, useDashboard, useLayersData } from '@/components/dashboard/DashboardProvider'
import { bySeverity, isAtLeast } from '@/alerts/levels'
import { alertsOf } from '@/layers/shared/alerts'
import { cityOfRead } from '@/layers/shared/city'
import type { AlertsPanelBlock as AlertsPanelBlockData } from '@/payload-types'

const TEXT = {
  checking: 'Checking…',
  none: 'No alerts right now.',
  showOnMap: 'Show on map',
  byEmail: 'Get these alerts by email',
}

/** The alerts that fire now on the block's layers (rules evaluated on the server), most severe first. */
export function AlertsPanelBlock(block: AlertsPanelBlockData) {
  const { data, city: pageCity, focusFeature } = useDashboard()
  const layerIds = block.layers.map((layer) => String(typeof layer === 'object' ? layer.id : layer))
  const states = useLayersData(layerIds, block.city)
  const minimum = block.minimumLevel ?? 'warning'
  const alerts = states
    .flatMap((state) => alertsOf(availableFeatures(state, 'alerting')).map((alert) => ({ ...alert, layerId: state.layerId })))
    .filter((alert) => isAtLeast(alert.level, minimum))
    .sort((a, b) => bySeverity(a.level, b.level))
  // Offered when the site sends mail and a layer here has rules (the form lets the reader pick among them).
  const notified = layerIds.map((id) => data.layers[id]).find((layer) => layer?.alertNotices)
  const loading = states.some((state) => state.status === 'loading' && !state.preview)

  const show = (layerId: string, featureId: string) => {
    const state = states.find((candidate) => candidate.layerId === layerId)
    focusFeature(layerId, featureId, state && availableFeatures(state, 'alerting').find((feature) => String(feature.id) === featureId))
    const map = [...document.querySelectorAll<HTMLElement>('.map-frame')][0]
    map?.scrollIntoView({ behavior: 'smooth', block: 'center' })
  }

  return (
    <section className="block alerts-panel" aria-labelledby={`alerts-${block.id}`}>
      <h2 id={`alerts-${block.id}`}>{block.title}</h2>
      {alerts.length === 0 ? (
        <p className="muted" role="status">
          {loading ? TEXT.checking : TEXT.none}
        </p>
      ) : (
        <ul className="alert-list" aria-live="polite">
          {alerts.map((alert) => (
            <li key={`${alert.layerId}:${alert.featureId}`} className={`alert alert--${alert.level}`}>
              <strong className="alert-level">{alert.level}</strong> {alert.message}
              <span className="muted">
                {' '}
                · {alert.name ?? alert.featureId} · {data.layers[alert.layerId]?.name}
              </span>{' '}
              <button type="button" className="link-button" onClick={() => show(alert.layerId, alert.featureId)}>
                {TEXT.showOnMap}
              </button>
            </li>
          ))}
        </ul>
      )}
      {notified && (
        <p>
          <a href={`/alerts/subscribe?${new URLSearchParams({ layer: notified.id, city: cityOfRead(notified.fixedCity, block.city, pageCity) ?? '' })}`}>{TEXT.byEmail}</a>
        </p>
      )}
    </section>
  )
}
