import type { CollectionAfterChangeHook, CollectionAfterDeleteHook } from 'payload'

import type { Post } from '@/payload-types'
import { FEED_PATH, POSTS_PATH, postPath, SITEMAP_PATH } from '@/site/paths'
import { purgePaths } from '@/site/revalidate'

/** A post's page and the posts index are prerendered: purge both when what citizens see changes. */
export const revalidatePost: CollectionAfterChangeHook<Post> = ({ doc, previousDoc, context }) => {
  if (context.disableRevalidate) return doc
  const wasPublished = previousDoc?._status === 'published'
  const isPublished = doc._status === 'published'
  if (!isPublished && !wasPublished) return doc
  const paths = [POSTS_PATH, FEED_PATH, SITEMAP_PATH]
  if (isPublished) paths.push(postPath(doc.slug))
  if (wasPublished && previousDoc?.slug !== doc.slug) paths.push(postPath(previousDoc?.slug))
  if (wasPublished && !isPublished) paths.push(postPath(doc.slug))
  purgePaths(...paths)
  return doc
}

export const revalidatePostDelete: CollectionAfterDeleteHook<Post> = ({ doc, context }) => {
  if (!context.disableRevalidate) purgePaths(POSTS_PATH, FEED_PATH, SITEMAP_PATH, postPath(doc?.slug))
  return doc
}
