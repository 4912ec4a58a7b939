import type { MetadataRoute } from 'next'

import { env } from '@/env'

import { LOCALES } from '@/i18n/locales'

import { absoluteUrl, ACCESSIBILITY_PATH, HOME_SLUG, localeAlternates, localePath, pagePath, POSTS_PATH, postPath, QUESTIONS_PATH } from './paths'
import { cachedGlobal, listPublicDocuments } from './queries'

const latest = (dates: (string | undefined)[]) => dates.filter(Boolean).sort().at(-1)

/**
 * What search engines may index: the published pages and posts (what an anonymous reader can
 * open, so never a draft), the news index, the questions page and the accessibility statement
 * (once an admin has saved it), each with its last change, in every locale, each naming its
 * translations (hreflang alternates).
 */
export async function sitemapEntries(): Promise<MetadataRoute.Sitemap> {
  const [{ pages, posts }, statement] = await Promise.all([listPublicDocuments(), cachedGlobal('accessibility-statement')])
  const url = (path: string) => absoluteUrl(path, env().PUBLIC_SERVER_URL)
  const entry = (path: string, lastModified?: string): MetadataRoute.Sitemap =>
    LOCALES.map((locale) => ({
      url: url(localePath(locale, path)),
      ...(lastModified ? { lastModified } : {}),
      alternates: { languages: Object.fromEntries(Object.entries(localeAlternates(path)).map(([language, href]) => [language, url(href)])) },
    }))
  const home = pages.find((page) => page.slug === HOME_SLUG)
  return [
    ...entry('/', home?.updatedAt),
    ...pages.filter((page) => page.slug && page.slug !== HOME_SLUG).flatMap((page) => entry(pagePath(page.slug), page.updatedAt)),
    ...entry(POSTS_PATH, latest(posts.map((post) => post.updatedAt))),
    ...posts.filter((post) => post.slug).flatMap((post) => entry(postPath(post.slug), post.updatedAt)),
    ...entry(QUESTIONS_PATH),
    ...(statement?.updatedAt ? entry(ACCESSIBILITY_PATH, statement.updatedAt) : []),
  ]
}
