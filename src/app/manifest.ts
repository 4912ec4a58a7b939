import type { MetadataRoute } from 'next'

import { DEFAULT_LOCALE } from '@/i18n/locales'
import { siteTitle } from '@/site/globals'
import { cachedGlobal } from '@/site/queries'

// Rebuilt when the site settings change (their cached read's tag) and at least every 10 minutes.
export const revalidate = 600

/** GET /manifest.webmanifest: the site's name and icons for a phone's home screen. */
export default async function manifest(): Promise<MetadataRoute.Manifest> {
  const settings = await cachedGlobal('site-settings')
  const name = siteTitle(settings)
  return {
    name,
    short_name: name.length > 12 ? name.slice(0, 12).trim() : name,
    description: settings?.description ?? undefined,
    // One manifest for every language: the home page it starts at (unprefixed) is in the default
    // locale, whatever Site settings → metadata → locale says (its default is 'en').
    lang: DEFAULT_LOCALE,
    start_url: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#0b5cad',
    icons: [
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  }
}
