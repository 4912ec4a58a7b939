import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { RichText } from '@/components/RichText'
import { postMetadata } from '@/site/metadata'
import { findPost, listPublishedPosts } from '@/site/queries'
import { canSeeDrafts } from '@/site/draftAccess'

export const revalidate = 300
export const dynamicParams = true

type Args = { params: Promise<{ slug: string }> }

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

export async function generateStaticParams() {
  const posts = (await listPublishedPosts(1))?.docs ?? []
  return posts.map((post) => ({ slug: post.slug }))
}

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  return postMetadata(decodeURIComponent((await params).slug))
}

export default async function PostPage({ params }: Args) {
  const { slug } = await params
  const draft = await canSeeDrafts()
  const post = await findPost(decodeURIComponent(slug), draft)
  if (!post) notFound()
  const categories = (post.categories ?? []).filter((category) => typeof category === 'object')
  const authors = post.populatedAuthors ?? []
  return (
    <article className="page post">
      <h1>{post.title}</h1>
      <p className="post-meta">
        {post.publishedAt && <time dateTime={post.publishedAt}>{dateFormat.format(new Date(post.publishedAt))}</time>}
        {authors.length > 0 && <span> · {authors.map((author) => author.name).join(', ')}</span>}
        {categories.length > 0 && <span> · {categories.map((category) => category.title).join(', ')}</span>}
      </p>
      <RichText data={post.content} />
    </article>
  )
}
