'use client'

import { useEffect, useRef, useState } from 'react'

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
  const announcement = useNewAlertAnnouncement(alerts, loading)

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
        <ul className="alert-list">
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
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </section>
  )
}

/** What the panel tells screen readers, in one place (to translate later). */
const newAlertText = (alert: { level: string; message: string; name?: string | null; featureId: string }) => `New alert, ${alert.level}: ${alert.message} (${alert.name ?? alert.featureId})`

/**
 * Each alert that appears after the panel first showed its list is announced once (politely); the
 * ones there at first, and a list redrawn with the same alerts, are not.
 */
function useNewAlertAnnouncement(alerts: { layerId: string; featureId: string; level: string; message: string; name?: string | null }[], loading: boolean): string {
  const seen = useRef<Set<string> | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const keys = alerts.map((alert) => `${alert.layerId}:${alert.featureId}:${alert.level}`).join('|')
  useEffect(() => {
    if (loading) return
    const current = new Map(alerts.map((alert) => [`${alert.layerId}:${alert.featureId}:${alert.level}`, alert]))
    if (seen.current === null) {
      seen.current = new Set(current.keys())
      return
    }
    const fresh = [...current].filter(([key]) => !seen.current!.has(key)).map(([, alert]) => alert)
    for (const key of current.keys()) seen.current.add(key)
    if (fresh.length > 0) setAnnouncement(fresh.map(newAlertText).join('. '))
    // `keys` stands for `alerts`: a new array each render, the same alerts most of the time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys, loading])
  return announcement
}
