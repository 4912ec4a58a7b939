import 'server-only'

import { draftMode, headers } from 'next/headers'
import { cache } from 'react'

import { userIsMember } from '@/access'
import { signedInUser } from '@/site/payload'

/**
 * Whether this render may show drafts and non-public layer data. Next's draft-mode cookie is one
 * value for the whole build, so it proves nothing about who holds it: the request's own Payload
 * session is checked again on every draft render (after logout, demotion or deletion the old
 * cookie shows what an anonymous citizen sees). Outside draft mode no header is read, so
 * prerendered pages stay static.
 */
export const canSeeDrafts = cache(async (): Promise<boolean> => {
  if (!(await draftMode()).isEnabled) return false
  return userIsMember(await signedInUser(await headers()))
})
