import 'server-only'

import type { Metadata } from 'next'

import type { Locale } from '@/i18n/locales'
import type { Media } from '@/payload-types'

import { findPage, findPost } from './queries'
import { HOME_SLUG, localeAlternates, localePath, pagePath, postPath } from './paths'

type Meta = { title?: string | null; description?: string | null; image?: number | string | Media | null } | undefined

/** The canonical address of `path` in `locale`, and the same page in every other locale (hreflang). */
export const localizedAlternates = (path: string, locale: Locale, extra: Metadata['alternates'] = {}): Metadata['alternates'] => ({
  ...extra,
  canonical: localePath(locale, path),
  languages: localeAlternates(path),
})

function toMetadata(fallbackTitle: string | undefined, meta: Meta, path: string, locale: Locale): Metadata {
  const image = meta?.image && typeof meta.image === 'object' ? meta.image : null
  const title = meta?.title || fallbackTitle
  return {
    // No title (the home page): the layout's, the site's name; `title: undefined` would remove it.
    ...(title ? { title } : {}),
    description: meta?.description ?? undefined,
    alternates: localizedAlternates(path, locale),
    openGraph: {
      title: title ?? undefined,
      description: meta?.description ?? undefined,
      url: localePath(locale, path),
      images: image?.url ? [{ url: image.sizes?.og?.url ?? image.url, alt: image.alt }] : undefined,
    },
  }
}

export async function pageMetadata(slug: string, locale: Locale): Promise<Metadata> {
  const page = await findPage(slug, false, locale)
  return toMetadata(slug === HOME_SLUG ? undefined : page?.title, page?.meta, pagePath(slug), locale)
}

/** `notFoundTitle`: the title when there is no such post (in the reader's language). */
export async function postMetadata(slug: string, locale: Locale, notFoundTitle: string): Promise<Metadata> {
  const post = await findPost(slug, false, locale)
  return { ...toMetadata(post?.title, post?.meta, postPath(slug), locale), ...(post ? {} : { title: notFoundTitle }) }
}
