// Time zones of the cities (Site settings → Cities → Time zone). Pure: browser, server and
// Payload's config import it alike.

/** A city's time zone when none was chosen. */
export const DEFAULT_TIME_ZONE = 'Europe/Madrid'

/** Whether `value` is an IANA time zone name this runtime knows (e.g. Europe/Lisbon, UTC). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > 64) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}
