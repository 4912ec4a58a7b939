// A feature's identity and display text: found by its entity id, its name, how long ago it was
// observed.
// No Node or framework imports: the browser and tests use it alike.
import type { Feature } from '@/ngsi'

/** The feature of entity `id`: held by id, not by position (a list's order and length change with each update). */
export const featureWithId = (features: readonly Feature[], id: string): Feature | undefined => features.find((feature) => String(feature.id) === id)

/** A feature's display name: its `name` attribute when it is text, else its id. */
export const featureName = (feature: Feature): string =>
  typeof feature.properties.name === 'string' && feature.properties.name ? feature.properties.name : String(feature.id)

/** "observed 5 minutes ago" in the page's language; undefined for an unreadable time. */
export function observedAgo(observedAt: unknown, now: number, locale = 'en'): string | undefined {
  if (typeof observedAt !== 'string') return undefined
  const at = Date.parse(observedAt)
  if (Number.isNaN(at)) return undefined
  // A reading stamped a little ahead of the reader's clock (the sensor's or the reader's clock is
  // off) was observed now: never "in 2 seconds".
  const seconds = Math.min(0, Math.round((at - now) / 1000))
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
