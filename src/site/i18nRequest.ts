import { hasLocale } from 'next-intl'
import { getRequestConfig } from 'next-intl/server'

import { DEFAULT_LOCALE, LOCALES } from '@/i18n/locales'
import { messagesOf } from '@/i18n/messages'

import { citiesOf, timeZoneOfCity } from './cities'
import { cachedGlobal } from './queries'

// next-intl's per-request configuration (next.config.mjs `requestConfig`; here, not in src/i18n, as it reads the site's settings): the locale comes from the `[locale]` segment (set by
// `setRequestLocale` in layouts and pages, so they stay static); dates the server writes (a post's,
// an answer's) are in the time zone of the site's first city, its default.
export default getRequestConfig(async ({ requestLocale }) => {
  const asked = await requestLocale
  const locale = hasLocale(LOCALES, asked) ? asked : DEFAULT_LOCALE
  const [messages, settings] = await Promise.all([messagesOf(locale), cachedGlobal('site-settings')])
  return { locale, messages, timeZone: timeZoneOfCity(citiesOf(settings)[0]) }
})
