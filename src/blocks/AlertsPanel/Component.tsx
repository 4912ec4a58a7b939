'use client'

import { useTranslations } from 'next-intl'
import { useEffect, useRef, useState } from 'react'

import { Link } from '@/i18n/navigation'
import { useDashboard, useLayersData } from '@/layers/client/DashboardProvider'
import { availableFeatures } from '@/layers/client/layerState'
import { bySeverity, isAtLeast } from '@/alerts/levels'
import { alertsOf } from '@/layers/shared/alerts'
import { cityOfRead } from '@/layers/shared/city'
import { featureWithId } from '@/layers/shared/format'
import { mapFor, useMappedLayers } from '@/layers/client/map/mapRegistry'
import type { AlertsPanelBlock as AlertsPanelBlockData } from '@/payload-types'

/** The alerts that fire now on the block's layers (rules evaluated on the server), most severe first. */
export function AlertsPanelBlock(block: AlertsPanelBlockData) {
  const t = useTranslations('map.alerts')
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
  const announcement = useNewAlertAnnouncement(alerts, loading, (alert) =>
    t('newAlert', { level: t(`level.${alert.level}`), message: alert.message, name: alert.name ?? alert.featureId }),
  )
  // "Show on map" only where a map of this page shows the alert's layer.
  const mapped = useMappedLayers()

  const show = (layerId: string, featureId: string) => {
    const state = states.find((candidate) => candidate.layerId === layerId)
    // A map is drawn once near the viewport: bring it there; it then opens the popup, in view, with focus in it.
    const mapId = mapFor(layerId)
    if (mapId) document.getElementById(mapId)?.scrollIntoView({ block: 'center' })
    focusFeature(layerId, featureId, state && featureWithId(availableFeatures(state, 'alerting'), featureId))
  }

  return (
    <section className="block alerts-panel" aria-labelledby={`alerts-${block.id}`}>
      <h2 id={`alerts-${block.id}`}>{block.title}</h2>
      {alerts.length === 0 ? (
        <p className="muted" role="status">
          {loading ? t('checking') : t('none')}
        </p>
      ) : (
        <ul className="alert-list">
          {alerts.map((alert) => (
            <li key={`${alert.layerId}:${alert.featureId}`} className={`alert alert--${alert.level}`}>
              <strong className="alert-level">{t(`level.${alert.level}`)}</strong> {alert.message}
              <span className="muted">
                {' '}
                · {alert.name ?? alert.featureId} · {data.layers[alert.layerId]?.name}
              </span>
              {mapped.has(alert.layerId) && (
                <>
                  {' '}
                  <button type="button" className="link-button" onClick={() => show(alert.layerId, alert.featureId)}>
                    {t('showOnMap')}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {notified && (
        <p>
          {/* In the reader's language: the form, its mails and its pages follow the page that linked to it. */}
          <Link href={{ pathname: '/alerts/subscribe', query: { layer: notified.id, city: cityOfRead(notified.fixedCity, block.city, pageCity) ?? '' } }} prefetch={false}>
            {t('byEmail')}
          </Link>
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </section>
  )
}

type AnnouncedAlert = { layerId: string; featureId: string; level: string; message: string; name?: string | null }

/**
 * Each alert that appears after the panel first showed its list is announced once (politely); the
 * ones there at first, and a list redrawn with the same alerts, are not.
 */
function useNewAlertAnnouncement(alerts: AnnouncedAlert[], loading: boolean, newAlertText: (alert: AnnouncedAlert) => string): string {
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
