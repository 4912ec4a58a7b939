import 'server-only'

import type { Metadata } from 'next'

import type { Media } from '@/payload-types'

import { findPage, findPost } from './queries'
import { HOME_SLUG, pagePath, postPath } from './paths'

type Meta = { title?: string | null; description?: string | null; image?: number | string | Media | null } | undefined

function toMetadata(fallbackTitle: string | undefined, meta: Meta, path: string): Metadata {
  const image = meta?.image && typeof meta.image === 'object' ? meta.image : null
  const title = meta?.title || fallbackTitle
  return {
    title,
    description: meta?.description ?? undefined,
    alternates: { canonical: path },
    openGraph: {
      title: title ?? undefined,
      description: meta?.description ?? undefined,
      url: path,
      images: image?.url ? [{ url: image.sizes?.og?.url ?? image.url, alt: image.alt }] : undefined,
    },
  }
}

export async function pageMetadata(slug: string): Promise<Metadata> {
  const page = await findPage(slug, false)
  return toMetadata(slug === HOME_SLUG ? undefined : page?.title, page?.meta, pagePath(slug))
}

export async function postMetadata(slug: string): Promise<Metadata> {
  const post = await findPost(slug, false)
  return { ...toMetadata(post?.title, post?.meta, postPath(slug)), ...(post ? {} : { title: 'Post not found' }) }
}
