import { Feed } from 'feed'

import { env } from '@/env'
import type { Locale } from '@/i18n/locales'

import { siteTitle } from './globals'
import { xmlText } from './xmlText'
import { absoluteUrl, FEED_PATH, localePath, POSTS_PATH, postPath } from './paths'
import { cachedGlobal, listFeedPosts } from './queries'

const optionalXmlText = (text: string | null | undefined) => (text ? xmlText(text) : undefined)

/** How many posts the feed carries: feed readers keep what they have seen. */
const FEED_POSTS = 20

/** The news as an Atom 1.0 document in `locale`: the newest published posts, each with its summary and authors; `news` names the feed. */
export async function newsFeed(locale: Locale, news: string): Promise<string> {
  const url = (path: string) => absoluteUrl(localePath(locale, path), env().PUBLIC_SERVER_URL)
  const [posts, settings] = await Promise.all([listFeedPosts(FEED_POSTS, locale), cachedGlobal('site-settings', locale)])
  const title = xmlText(siteTitle(settings))
  const updated = posts.map((post) => post.updatedAt).sort().at(-1)
  const feed = new Feed({
    title: `${title}: ${xmlText(news)}`,
    description: optionalXmlText(settings?.description),
    id: url(POSTS_PATH),
    link: url(POSTS_PATH),
    language: locale,
    favicon: absoluteUrl('/favicon.ico', env().PUBLIC_SERVER_URL),
    copyright: title,
    // With no post yet the library states the time of rendering.
    updated: updated ? new Date(updated) : undefined,
    generator: title,
    feedLinks: { atom: url(FEED_PATH) },
  })
  for (const post of posts) {
    const link = url(postPath(post.slug))
    feed.addItem({
      title: xmlText(post.title),
      id: link,
      link,
      description: optionalXmlText(post.meta?.description),
      date: new Date(post.updatedAt),
      published: post.publishedAt ? new Date(post.publishedAt) : undefined,
      author: (post.populatedAuthors ?? []).flatMap((author) => (author.name ? [{ name: xmlText(author.name) }] : [])),
    })
  }
  return feed.atom1()
}
