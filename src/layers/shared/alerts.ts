// The alerts a layer's features carry (set by the server's rule engine), for the alerts panel.
// No Node or framework imports.
import { type AlertLevel, bySeverity, isAlertLevel } from '@/alerts/levels'
import type { Feature } from '@/ngsi'

/** A feature's alert level; undefined when it carries no alert or a malformed one. */
export const alertLevelOf = (feature: Feature): AlertLevel | undefined => {
  const alert = feature.properties.alert as { level?: unknown } | undefined
  return alert && typeof alert === 'object' && isAlertLevel(alert.level) ? alert.level : undefined
}

export type LayerAlert = { featureId: string; level: AlertLevel; message: string; name?: string }

/** The alerts carried by features, most severe first. */
export function alertsOf(features: Feature[]): LayerAlert[] {
  const alerts: LayerAlert[] = []
  for (const feature of features) {
    const level = alertLevelOf(feature)
    if (!level) continue
    const { message } = feature.properties.alert as { message?: unknown }
    const name = feature.properties.name
    alerts.push({
      featureId: String(feature.id),
      level,
      message: typeof message === 'string' ? message : '',
      name: typeof name === 'string' ? name : undefined,
    })
  }
  return alerts.sort((a, b) => bySeverity(a.level, b.level))
}
