// Times and hours as citizens read them: in their locale, in the time zone given (the city's, once
// wired; undefined is the reader's own clock). Pure: Intl only, the browser and the server alike.

type Instant = number | string | Date

const dateOf = (at: Instant) => (at instanceof Date ? at : new Date(at))

/** More than a site's locales × its cities' zones × the formats here: a bound, not an expected size. */
const MAX_KEPT_FORMATS = 200

const kept = new Map<string, Intl.DateTimeFormat>()

/**
 * One Intl.DateTimeFormat per format, locale and zone, made once: making one costs far more than
 * formatting with it (a phone spent most of a status line's render on it), and every data block
 * writes times on each render.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`
  let format = kept.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options)
    if (kept.size >= MAX_KEPT_FORMATS) kept.clear()
    kept.set(key, format)
  }
  return format
}

/** A time of day to the second, "14:05:09" (es, pt) or "02:05:09 PM" (en): when data came. */
export const formatClock = (at: Instant, locale: string, timeZone?: string): string =>
  dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone }).format(dateOf(at))

/** A day and time, as charts and tables show a period: "26 nov, 14:05". */
export const formatDayTime = (at: Instant, locale: string, timeZone?: string): string =>
  dateTimeFormat(locale, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(dateOf(at))

/** A full date and time with its zone, for an observation: "26 nov 2026, 14:05 UTC". */
export const formatDateTimeWithZone = (at: Instant, locale: string, timeZone?: string): string =>
  dateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', timeZone }).format(dateOf(at))

/** The start of an hour of the day (0–23), "22:00" (es, pt) or "10:00 PM" (en): no date, no zone. */
export const formatHour = (hour: number, locale: string): string =>
  dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, hour))
