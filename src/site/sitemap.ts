import type { MetadataRoute } from 'next'

import { env } from '@/env'

import { absoluteUrl, HOME_SLUG, pagePath, POSTS_PATH, postPath, QUESTIONS_PATH } from './paths'
import { listPublicDocuments } from './queries'

const latest = (dates: (string | undefined)[]) => dates.filter(Boolean).sort().at(-1)

/**
 * What search engines may index: the published pages and posts (what an anonymous reader can
 * open, so never a draft), the news index and the questions page, each with its last change.
 */
export async function sitemapEntries(): Promise<MetadataRoute.Sitemap> {
  const { pages, posts } = await listPublicDocuments()
  const entry = (path: string, lastModified?: string): MetadataRoute.Sitemap[number] => ({
    url: absoluteUrl(path, env().PUBLIC_SERVER_URL),
    ...(lastModified ? { lastModified } : {}),
  })
  const home = pages.find((page) => page.slug === HOME_SLUG)
  return [
    entry('/', home?.updatedAt),
    ...pages.filter((page) => page.slug && page.slug !== HOME_SLUG).map((page) => entry(pagePath(page.slug), page.updatedAt)),
    entry(POSTS_PATH, latest(posts.map((post) => post.updatedAt))),
    ...posts.filter((post) => post.slug).map((post) => entry(postPath(post.slug), post.updatedAt)),
    entry(QUESTIONS_PATH),
  ]
}
