import { draftMode } from 'next/headers'
import { redirect } from 'next/navigation'

import { HttpError, withErrorHandling } from '@/server/errors'
import { sameSitePath } from '@/site/paths'

/** Turns draft mode off, then opens `path` (a path of this site) or the home page. */
export const GET = withErrorHandling(async (request: Request) => {
  const path = sameSitePath(new URL(request.url).searchParams.get('path') ?? '/')
  if (!path) throw new HttpError(400, 'path must be a path of this site starting with /')
  ;(await draftMode()).disable()
  redirect(path)
})
