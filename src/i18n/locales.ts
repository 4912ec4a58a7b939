// The languages citizens can read the site in. Content fields marked `localized` are stored per
// locale (Payload's localization), so adding one here needs a message catalogue and a migration.
// Pure: the browser, the server and Payload's config import it alike.

export const LOCALES = ['es', 'pt', 'en'] as const

export type Locale = (typeof LOCALES)[number]

/** Unprefixed URLs are in this locale; Payload falls back to it for untranslated fields. */
export const DEFAULT_LOCALE: Locale = 'es'

/** Each language in its own words, for the language switch. */
export const LOCALE_NAMES: Record<Locale, string> = { es: 'Español', pt: 'Português', en: 'English' }

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
