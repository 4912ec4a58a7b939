import type { CollectionAfterChangeHook, CollectionAfterDeleteHook } from 'payload'

import type { Page } from '@/payload-types'
import { pagePath, SITEMAP_PATH } from '@/site/paths'
import { purgePaths } from '@/site/revalidate'

/** Citizens' pages are prerendered: publishing, unpublishing or renaming one purges its path. */
export const revalidatePage: CollectionAfterChangeHook<Page> = ({ doc, previousDoc, context }) => {
  if (context.disableRevalidate) return doc
  const paths: string[] = []
  if (doc._status === 'published') paths.push(pagePath(doc.slug))
  if (previousDoc?._status === 'published' && (doc._status !== 'published' || previousDoc.slug !== doc.slug)) {
    paths.push(pagePath(previousDoc.slug))
  }
  if (paths.length > 0) {
    purgePaths(...paths, SITEMAP_PATH)
  }
  return doc
}

export const revalidatePageDelete: CollectionAfterDeleteHook<Page> = ({ doc, context }) => {
  if (!context.disableRevalidate) purgePaths(pagePath(doc?.slug), SITEMAP_PATH)
  return doc
}
