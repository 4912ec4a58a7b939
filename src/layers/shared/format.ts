// A feature's identity and display text: found by its entity id, its name, its values with units,
// how long ago it was observed.
// No Node or framework imports: the browser and tests use it alike.
import type { Feature } from '@/ngsi'

/** The feature of entity `id`: held by id, not by position (a list's order and length change with each update). */
export const featureWithId = (features: readonly Feature[], id: string): Feature | undefined => features.find((feature) => String(feature.id) === id)

/** A feature's display name: its `name` attribute when it is text, else its id. */
export const featureName = (feature: Feature): string =>
  typeof feature.properties.name === 'string' && feature.properties.name ? feature.properties.name : String(feature.id)

export function formatNumber(value: number, locale = 'en'): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)
}

/** A cell's text: numbers formatted, objects as JSON, missing as an empty string. */
export function displayValue(value: unknown, unit?: string, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return ''
  if (typeof value === 'number') return unit ? `${formatNumber(value, locale)} ${unit}` : formatNumber(value, locale)
  if (typeof value === 'object') return JSON.stringify(value)
  return unit ? `${String(value)} ${unit}` : String(value)
}

/** "observed 5 minutes ago" in the page's language; undefined for an unreadable time. */
export function observedAgo(observedAt: unknown, now: number, locale = 'en'): string | undefined {
  if (typeof observedAt !== 'string') return undefined
  const at = Date.parse(observedAt)
  if (Number.isNaN(at)) return undefined
  const seconds = Math.round((at - now) / 1000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ]
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit)
  }
  return format.format(seconds, 'second')
}
