import type { Metadata } from 'next'
import { getFormatter, getTranslations } from 'next-intl/server'

import { SiteLink } from '@/components/SiteLink'
import { pageLocale } from '@/i18n/server'
import { localizedAlternates } from '@/site/metadata'
import { FEED_PATH, localePath, POSTS_PATH, postPath } from '@/site/paths'
import { listPublishedPosts } from '@/site/queries'

export const revalidate = 300

type Args = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const locale = await pageLocale(params)
  const t = await getTranslations({ locale, namespace: 'posts' })
  return { title: t('title'), alternates: localizedAlternates(POSTS_PATH, locale, { types: { 'application/atom+xml': localePath(locale, FEED_PATH) } }) }
}

export default async function PostsIndex({ params }: Args) {
  const locale = await pageLocale(params)
  const [t, format] = await Promise.all([getTranslations('posts'), getFormatter()])
  const posts = (await listPublishedPosts(1, locale))?.docs ?? []
  return (
    <article className="page posts-index">
      <h1>{t('title')}</h1>
      <p>
        <a href={localePath(locale, FEED_PATH)} type="application/atom+xml">
          {t('feedLink')}
        </a>
      </p>
      {posts.length === 0 ? (
        <p>{t('empty')}</p>
      ) : (
        <ul className="post-list">
          {posts.map((post) => (
            <li key={post.id} className="post-card">
              <h2>
                <SiteLink href={postPath(post.slug)}>{post.title}</SiteLink>
              </h2>
              {post.publishedAt && <time dateTime={post.publishedAt}>{format.dateTime(new Date(post.publishedAt), { dateStyle: 'long' })}</time>}
              {post.meta?.description && <p>{post.meta.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </article>
  )
}
