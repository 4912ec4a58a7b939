import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getFormatter, getTranslations } from 'next-intl/server'

import { RichText } from '@/components/RichText'
import { pageLocale } from '@/i18n/server'
import { postMetadata } from '@/site/metadata'
import { findPost, listPublishedPosts } from '@/site/queries'
import { canSeeDrafts } from '@/site/draftAccess'

export const revalidate = 300
export const dynamicParams = true

type Args = { params: Promise<{ locale: string; slug: string }> }

export async function generateStaticParams() {
  const posts = (await listPublishedPosts(1))?.docs ?? []
  return posts.map((post) => ({ slug: post.slug }))
}

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const locale = await pageLocale(params)
  const t = await getTranslations({ locale, namespace: 'posts' })
  return postMetadata(decodeURIComponent((await params).slug), locale, t('notFound'))
}

export default async function PostPage({ params }: Args) {
  const locale = await pageLocale(params)
  const { slug } = await params
  const [draft, format] = await Promise.all([canSeeDrafts(), getFormatter()])
  const post = await findPost(decodeURIComponent(slug), draft, locale)
  if (!post) notFound()
  const categories = (post.categories ?? []).filter((category) => typeof category === 'object')
  const authors = post.populatedAuthors ?? []
  return (
    <article className="page post">
      <h1>{post.title}</h1>
      <p className="post-meta">
        {post.publishedAt && <time dateTime={post.publishedAt}>{format.dateTime(new Date(post.publishedAt), { dateStyle: 'long' })}</time>}
        {authors.length > 0 && <span> · {authors.map((author) => author.name).join(', ')}</span>}
        {categories.length > 0 && <span> · {categories.map((category) => category.title).join(', ')}</span>}
      </p>
      <RichText data={post.content} />
    </article>
  )
}
