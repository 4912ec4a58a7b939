import type { Metadata } from 'next'
import Link from 'next/link'

import { FEED_PATH, POSTS_PATH, postPath } from '@/site/paths'
import { listPublishedPosts } from '@/site/queries'

export const revalidate = 300

export const metadata: Metadata = {
  title: 'News',
  alternates: { canonical: POSTS_PATH, types: { 'application/atom+xml': FEED_PATH } },
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

export default async function PostsIndex() {
  const posts = (await listPublishedPosts(1))?.docs ?? []
  return (
    <article className="page posts-index">
      <h1>News</h1>
      <p>
        <a href={FEED_PATH} type="application/atom+xml">
          Follow the news in a feed reader (Atom)
        </a>
      </p>
      {posts.length === 0 ? (
        <p>No news yet.</p>
      ) : (
        <ul className="post-list">
          {posts.map((post) => (
            <li key={post.id} className="post-card">
              <h2>
                <Link href={postPath(post.slug)}>{post.title}</Link>
              </h2>
              {post.publishedAt && <time dateTime={post.publishedAt}>{dateFormat.format(new Date(post.publishedAt))}</time>}
              {post.meta?.description && <p>{post.meta.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </article>
  )
}
