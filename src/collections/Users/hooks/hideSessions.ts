import type { CollectionAfterMeHook, CollectionAfterReadHook } from 'payload'

/**
 * Session ids never leave the server, not even to their own account: Payload's `sessions` field
 * is readable by its owner, so a draft's reviewer or a post's author expanded at any depth, a
 * join or a GraphQL query would carry them. Server code reading with overrideAccess (Payload's
 * own token check among it) still sees them.
 */
export const hideSessions: CollectionAfterReadHook = ({ doc, overrideAccess }) => {
  if (overrideAccess !== true && doc && typeof doc === 'object' && 'sessions' in doc) delete doc.sessions
  return doc
}

/**
 * `me` (REST /api/users/me, GraphQL meUser) answers without the session token: the browser holds
 * it in an HttpOnly cookie, and a page script that can call `me` must not be able to read it.
 */
export const withoutSessionToken: CollectionAfterMeHook = ({ response }) => {
  const { token: _token, ...rest } = response as { token?: string }
  return rest as typeof response
}
