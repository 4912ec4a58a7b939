import { defineRouting } from 'next-intl/routing'

import { DEFAULT_LOCALE, LOCALES } from './locales'

/**
 * Citizens' URLs carry their locale (`/pt/…`), the default locale's stay unprefixed (`/…`). There
 * is no middleware: next.config.mjs rewrites unprefixed paths to the default locale's pages, and a
 * reader changes language with the switch in the header (never by a redirect on Accept-Language,
 * which would make every page dynamic).
 */
export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  localePrefix: 'as-needed',
  localeDetection: false,
  alternateLinks: false,
})
