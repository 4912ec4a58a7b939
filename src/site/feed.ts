import { Feed } from 'feed'

import { env } from '@/env'

import { FEED_PATH, POSTS_PATH, postPath } from './paths'
import { cachedGlobal, listFeedPosts } from './queries'

/** How many posts the feed carries: feed readers keep what they have seen. */
const FEED_POSTS = 20

/** The news as an Atom 1.0 document: the newest published posts, each with its summary and authors. */
export async function newsFeed(): Promise<string> {
  const base = env().PUBLIC_SERVER_URL.replace(/\/+$/, '')
  const [posts, settings] = await Promise.all([listFeedPosts(FEED_POSTS), cachedGlobal('site-settings')])
  const title = settings?.title ?? 'City Dashboard'
  const updated = posts.map((post) => post.updatedAt).sort().at(-1)
  const feed = new Feed({
    title: `${title}: news`,
    description: settings?.description ?? undefined,
    id: `${base}${POSTS_PATH}`,
    link: `${base}${POSTS_PATH}`,
    language: settings?.metadata?.locale ?? 'en',
    favicon: `${base}/favicon.ico`,
    copyright: title,
    updated: updated ? new Date(updated) : new Date(0),
    generator: title,
    feedLinks: { atom: `${base}${FEED_PATH}` },
  })
  for (const post of posts) {
    const url = `${base}${postPath(post.slug)}`
    feed.addItem({
      title: post.title,
      id: url,
      link: url,
      description: post.meta?.description ?? undefined,
      date: new Date(post.updatedAt),
      published: post.publishedAt ? new Date(post.publishedAt) : undefined,
      author: (post.populatedAuthors ?? []).flatMap((author) => (author.name ? [{ name: author.name }] : [])),
    })
  }
  return feed.atom1()
}
