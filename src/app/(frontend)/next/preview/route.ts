import { draftMode } from 'next/headers'
import { redirect } from 'next/navigation'

import { userIsMember } from '@/access'
import { HttpError, withErrorHandling } from '@/server/errors'
import { sameSitePath } from '@/site/paths'
import { signedInUser } from '@/site/payload'

/** Turns on draft mode for signed-in members of the admin, then opens the page being edited. */
export const GET = withErrorHandling(async (request: Request) => {
  // Only paths of this site: an open redirect would let anyone borrow our domain.
  const path = sameSitePath(new URL(request.url).searchParams.get('path') ?? '')
  if (!path) throw new HttpError(400, 'path must be a path of this site starting with /')
  if (!userIsMember(await signedInUser(request.headers))) throw new HttpError(403, 'Sign in to the admin to preview drafts')
  ;(await draftMode()).enable()
  redirect(path)
})
