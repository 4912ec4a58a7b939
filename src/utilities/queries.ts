import config from '@payload-config'
import { getPayload, type Where } from 'payload'

import type { Footer, Header, Page, Post, SiteSetting } from '@/payload-types'

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

export const findPage = (slug: string, { draft }: { draft: boolean }) =>
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
      return docs.map((doc) => doc.slug).filter((slug) => slug && slug !== 'home')
    },
    [] as string[],
  )

export const findPost = (slug: string, { draft }: { draft: boolean }) =>
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

export const findGlobal = <Slug extends keyof GlobalTypes>(slug: Slug) =>
  tolerantAtBuild<GlobalTypes[Slug] | null>(
    `global ${slug}`,
    async () => {
      const payload = await payloadClient()
      return (await payload.findGlobal({ slug, depth: 1 })) as GlobalTypes[Slug]
    },
    null,
  )
