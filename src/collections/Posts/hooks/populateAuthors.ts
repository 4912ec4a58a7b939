import type { CollectionAfterReadHook } from 'payload'

import type { Post } from '@/payload-types'


/**
 * Citizens may not read user accounts, yet a post shows its authors' names: copy just the
 * names into a read-only field, looked up with access overridden.
 */
export const populateAuthors: CollectionAfterReadHook<Post> = async ({ doc, req }) => {
  const ids = (doc.authors ?? []).map((author) => (typeof author === 'object' ? author.id : author))
  if (ids.length === 0) return { ...doc, populatedAuthors: [] }
  const { docs } = await req.payload.find({
    collection: 'users',
    where: { id: { in: ids } },
    depth: 0,
    limit: ids.length,
    overrideAccess: true,
    select: { name: true },
    req,
  })
  return {
    ...doc,
    populatedAuthors: docs.map((user) => ({ id: String(user.id), name: user.name || 'City web team' })),
  }
}
