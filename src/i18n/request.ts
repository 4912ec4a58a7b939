import { hasLocale } from 'next-intl'
import { getRequestConfig } from 'next-intl/server'

import { cachedGlobal } from '@/site/queries'

import { DEFAULT_LOCALE, LOCALES } from './locales'
import { messagesOf } from './messages'
import { DEFAULT_TIME_ZONE } from './timeZone'

// next-intl's per-request configuration: the locale comes from the `[locale]` segment (set by
// `setRequestLocale` in layouts and pages, so they stay static); dates the server writes (a post's,
// an answer's) are in the time zone of the site's first city, its default.
export default getRequestConfig(async ({ requestLocale }) => {
  const asked = await requestLocale
  const locale = hasLocale(LOCALES, asked) ? asked : DEFAULT_LOCALE
  const [messages, settings] = await Promise.all([messagesOf(locale), cachedGlobal('site-settings')])
  return { locale, messages, timeZone: settings?.cities?.[0]?.timeZone || DEFAULT_TIME_ZONE }
})
