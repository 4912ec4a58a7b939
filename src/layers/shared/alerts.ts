// The alerts a layer's features carry (set by the server's rule engine), for the alerts panel.
// No Node or framework imports.
import { type AlertLevel, bySeverity, isAlertLevel } from '@/alerts/levels'
import type { Feature } from '@/ngsi'

/** A feature's alert level; undefined when it carries no alert or a malformed one. */
export const alertLevelOf = (feature: Feature): AlertLevel | undefined => {
  const alert = feature.properties.alert as { level?: unknown } | undefined
  return alert && typeof alert === 'object' && isAlertLevel(alert.level) ? alert.level : undefined
}

/** A feature's alert (level and message); undefined when it carries no alert or a malformed one. */
export function alertOf(feature: Feature): { level: AlertLevel; message: string } | undefined {
  const level = alertLevelOf(feature)
  if (!level) return undefined
  const { message } = feature.properties.alert as { message?: unknown }
  return { level, message: typeof message === 'string' ? message : '' }
}

export type LayerAlert = { featureId: string; level: AlertLevel; message: string; name?: string }

/** The alerts carried by features, most severe first. */
export function alertsOf(features: Feature[]): LayerAlert[] {
  const alerts: LayerAlert[] = []
  for (const feature of features) {
    const alert = alertOf(feature)
    if (!alert) continue
    const name = feature.properties.name
    alerts.push({ featureId: String(feature.id), ...alert, name: typeof name === 'string' ? name : undefined })
  }
  return alerts.sort((a, b) => bySeverity(a.level, b.level))
}
