import 'server-only'

import { unstable_cache } from 'next/cache'
import type { DataFromCollectionSlug, Where } from 'payload'
import { cache } from 'react'

import { DEFAULT_LOCALE, type Locale } from '@/i18n/locales'
import type { Config } from '@/payload-types'

import { HOME_SLUG } from './paths'
import { type GlobalSlug, globalTag, readGlobal } from './globals'
import { duringBuild, payloadClient, tolerantAtBuild } from './payload'


const publishedOnly = (draft: boolean): Where | undefined => (draft ? undefined : { _status: { equals: 'published' } })

/**
 * A page or post by slug: published only, or the latest draft for a draft preview; its texts in
 * `locale` (a text not yet translated comes in the default locale: Payload's fallback). Slugs are
 * shared by every locale.
 */
function findBySlug<Slug extends 'pages' | 'posts'>(collection: Slug, slug: string, draft: boolean, locale: Locale) {
  return tolerantAtBuild(
    `${collection} ${slug} (${locale})`,
    async () => {
      const payload = await payloadClient()
      const { docs } = await payload.find({
        collection,
        where: { and: [{ slug: { equals: slug } }, ...(draft ? [] : [publishedOnly(false)!])] },
        draft,
        locale,
        limit: 1,
        depth: 2,
        overrideAccess: draft,
        pagination: false,
      })
      return (docs[0] as DataFromCollectionSlug<Slug> | undefined) ?? null
    },
    null,
  )
}

/**
 * A page by slug, read once per render: metadata and the page body share it (React `cache`, one
 * request's memory only, so a draft read never outlives its request). Flags are arguments, not an
 * object, because `cache` matches arguments by identity.
 */
export const findPage = cache((slug: string, draft: boolean, locale: Locale = DEFAULT_LOCALE) => findBySlug('pages', slug, draft, locale))

export const listPublishedPageSlugs = () =>
  tolerantAtBuild(
    'page list',
    async () => {
      const payload = await payloadClient()
      const { docs } = await payload.find({
        collection: 'pages',
        where: publishedOnly(false),
        select: { slug: true },
        limit: 1000,
        pagination: false,
        overrideAccess: false,
      })
      return docs.map((doc) => doc.slug).filter((slug) => slug && slug !== HOME_SLUG)
    },
    [] as string[],
  )

/** A post by slug, read once per render (see findPage). */
export const findPost = cache((slug: string, draft: boolean, locale: Locale = DEFAULT_LOCALE) => findBySlug('posts', slug, draft, locale))

const POSTS_PER_PAGE = 12

/** A page of the news index, newest first, with the posts' texts in `locale`. */
export const listPublishedPosts = (page = 1, locale: Locale = DEFAULT_LOCALE) =>
  tolerantAtBuild(
    'post list',
    async () => {
      const payload = await payloadClient()
      return payload.find({
        collection: 'posts',
        locale,
        where: publishedOnly(false),
        sort: '-publishedAt',
        limit: POSTS_PER_PAGE,
        page,
        depth: 1,
        overrideAccess: false,
        select: { title: true, slug: true, publishedAt: true, categories: true, meta: true, populatedAuthors: true },
      })
    },
    null,
  )

/** Every published page and post as an anonymous reader sees it: slug and last change, for the sitemap. */
export const listPublicDocuments = () =>
  tolerantAtBuild(
    'public documents',
    async () => {
      const payload = await payloadClient()
      const read = (collection: 'pages' | 'posts') =>
        payload.find({
          collection,
          where: publishedOnly(false),
          select: { slug: true, updatedAt: true },
          sort: '-updatedAt',
          limit: MAX_SITEMAP_DOCUMENTS,
          pagination: false,
          overrideAccess: false,
        })
      const [pages, posts] = await Promise.all([read('pages'), read('posts')])
      return { pages: pages.docs, posts: posts.docs }
    },
    { pages: [], posts: [] },
  )

/** A sitemap file holds at most 50,000 URLs (sitemaps.org); a city's site is far below. */
const MAX_SITEMAP_DOCUMENTS = 20_000

/** The newest published posts, for the news feed (texts in `locale`). */
export const listFeedPosts = (limit: number, locale: Locale = DEFAULT_LOCALE) =>
  tolerantAtBuild(
    'feed posts',
    async () => {
      const payload = await payloadClient()
      const { docs } = await payload.find({
        collection: 'posts',
        locale,
        where: publishedOnly(false),
        sort: '-publishedAt',
        limit,
        pagination: false,
        depth: 0,
        overrideAccess: false,
        select: { title: true, slug: true, publishedAt: true, updatedAt: true, meta: true, populatedAuthors: true },
      })
      return docs
    },
    [],
  )

// Payload also runs outside Next (scripts, tests), where there is no cache to keep an entry in.
const insideNextServer = () => Boolean(process.env.NEXT_RUNTIME) && !duringBuild()

const cachedRead = <Slug extends GlobalSlug>(slug: Slug, locale: Locale) =>
  unstable_cache(async () => readGlobal(await payloadClient(), slug, { depth: 1, locale }), ['global', slug, locale], {
    tags: [globalTag(slug), globalTag(slug, locale)],
  })()

/**
 * A global for citizens' pages, its texts in `locale`: kept across requests until its own hook
 * revalidates its tags (every locale's: a header save re-renders the pages that show the header,
 * in every language), and read once per render however many parts of the page ask (layout,
 * metadata, blocks, dashboard loader). The locale is a string argument: React's `cache` matches
 * arguments by identity.
 */
export const cachedGlobal = cache(<Slug extends GlobalSlug>(slug: Slug, locale: Locale = DEFAULT_LOCALE) =>
  tolerantAtBuild<Config['globals'][Slug] | null>(
    `global ${slug} (${locale})`,
    async () => (insideNextServer() ? cachedRead(slug, locale) : readGlobal(await payloadClient(), slug, { depth: 1, locale })),
    null,
  ),
)
