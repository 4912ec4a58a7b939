import { getTranslations } from 'next-intl/server'

import { isLocale, LOCALES } from '@/i18n/locales'
import { newsFeed } from '@/site/feed'

// Rebuilt when a post is published or changed (revalidatePost), and at least every 10 minutes.
export const revalidate = 600
export const dynamicParams = false
export const generateStaticParams = () => LOCALES.map((locale) => ({ locale }))

/** GET /posts/feed.xml (and /{locale}/posts/feed.xml) → the news as an Atom feed (published posts only). */
export async function GET(_request: Request, { params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params
  if (!isLocale(locale)) return Response.json({ error: 'Unknown language' }, { status: 404 })
  const t = await getTranslations({ locale, namespace: 'posts' })
  return new Response(await newsFeed(locale, t('title')), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } })
}
