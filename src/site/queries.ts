import config from '@payload-config'
import { getPayload, type Where } from 'payload'
import { cache } from 'react'

import type { Footer, Header, Page, Post, SiteSetting } from '@/payload-types'

import { HOME_SLUG } from './paths'

/**
 * Data for citizens' pages. A Docker image is built without a database: during `next build`
 * a failed query renders the page empty, and time-based revalidation fills it in once running.
 */
const duringBuild = () => process.env.NEXT_PHASE === 'phase-production-build'

async function tolerantAtBuild<T>(what: string, query: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await query()
  } catch (error) {
    if (!duringBuild()) throw error
    console.warn(`[build] ${what}: database not ready, prerendering without it`)
    return fallback
  }
}

export const payloadClient = () => getPayload({ config })

const publishedOnly = (draft: boolean): Where | undefined => (draft ? undefined : { _status: { equals: 'published' } })

/**
 * A page by slug, read once per render: metadata and the page body share it (React `cache`, one
 * request's memory only, so a draft read never outlives its request). Flags are arguments, not an
 * object, because `cache` matches arguments by identity.
 */
export const findPage = cache((slug: string, draft: boolean) =>
  tolerantAtBuild<Page | null>(
    `page ${slug}`,
    async () => {
      const payload = await payloadClient()
      const { docs } = await payload.find({
        collection: 'pages',
        where: { and: [{ slug: { equals: slug } }, ...(draft ? [] : [publishedOnly(false)!])] },
        draft,
        limit: 1,
        depth: 2,
        overrideAccess: draft,
        pagination: false,
      })
      return docs[0] ?? null
    },
    null,
  ),
)

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
export const findPost = cache((slug: string, draft: boolean) =>
  tolerantAtBuild<Post | null>(
    `post ${slug}`,
    async () => {
      const payload = await payloadClient()
      const { docs } = await payload.find({
        collection: 'posts',
        where: { and: [{ slug: { equals: slug } }, ...(draft ? [] : [publishedOnly(false)!])] },
        draft,
        limit: 1,
        depth: 2,
        overrideAccess: draft,
        pagination: false,
      })
      return docs[0] ?? null
    },
    null,
  ),
)

export const POSTS_PER_PAGE = 12

export const listPublishedPosts = (page = 1) =>
  tolerantAtBuild(
    'post list',
    async () => {
      const payload = await payloadClient()
      return payload.find({
        collection: 'posts',
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

type GlobalTypes = { header: Header; footer: Footer; 'site-settings': SiteSetting }

/** A global, read once per render however many parts of the page ask (layout, metadata, blocks, dashboard loader). */
export const findGlobal = cache(<Slug extends keyof GlobalTypes>(slug: Slug) =>
  tolerantAtBuild<GlobalTypes[Slug] | null>(
    `global ${slug}`,
    async () => {
      const payload = await payloadClient()
      return (await payload.findGlobal({ slug, depth: 1 })) as GlobalTypes[Slug]
    },
    null,
  ),
)
