import 'server-only'

import { notFound } from 'next/navigation'
import { setRequestLocale } from 'next-intl/server'

import { isLocale, type Locale } from './locales'

/**
 * The locale of a citizen page's `[locale]` segment, made the request's (so next-intl renders the
 * page statically in it). Anything else is a 404: the segment only ever holds the site's locales.
 */
export async function pageLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params
  if (!isLocale(locale)) notFound()
  setRequestLocale(locale)
  return locale
}
