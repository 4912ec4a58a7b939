// Alert messages in the reader's language. A layer's data is one body for every reader, with the
// default language's messages; a feature's alert also names the rule that fired and its value, so
// a page in another language writes that rule's message (MapLayers alert rules are localized) the
// way the server would. Browser-safe: no server imports.
import { fillTemplate } from '@/alerts/engine'
import type { Feature } from '@/ngsi'

import type { Presentation } from './presentation'
import type { AlertText } from './types'

type FeatureAlert = { level?: unknown; message?: unknown; rule?: unknown; value?: unknown }

const alertValue = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null)

/**
 * `feature` with its alert's message from `texts` (the reader's language), `{value}` and
 * `{attribute}` written as `presentation` shows them; the same object when there is nothing to change.
 */
export function alertInLanguage(feature: Feature, texts: readonly AlertText[] | undefined, presentation: Presentation): Feature {
  const alert = feature.properties.alert as FeatureAlert | undefined
  const text = texts && typeof alert?.rule === 'number' ? texts[alert.rule] : undefined
  if (!alert || !text?.message) return feature
  const value = alertValue(alert.value)
  // As the server writes it: as the layer shows the attribute when it has settings for it, else as it is.
  const shown = presentation.settings.attributes?.some((row) => row.attribute === text.attribute)
  const message = shown
    ? fillTemplate(
        text.message,
        presentation.attributeLabel(text.attribute),
        text.stale ? presentation.formatTime(typeof value === 'string' ? value : undefined) : presentation.formatValue(text.attribute, value),
      )
    : fillTemplate(text.message, text.attribute, value)
  return message === alert.message ? feature : { ...feature, properties: { ...feature.properties, alert: { ...alert, message } as Feature['properties'][string] } }
}
