import 'server-only'

import { env } from '@/env'
import { errorResponse } from './errors'
import { bodyTooLarge, readBodyBytes, withCappedBody } from './body'

// Upload collections: multipart bodies up to the upload limit, streamed; everything else is JSON-sized.
const UPLOAD_PATH = /^\/api\/media(\/|$)/
// Room for the form fields beside the file.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/**
 * Payload's REST and GraphQL handlers with request bodies capped as they stream in: JSON bodies at
 * MAX_JSON_BODY_BYTES (read up to the limit, then handed over), uploads at MAX_UPLOAD_BYTES (handed
 * over as a counted stream). Past the limit the answer is 413 `{error}`, whatever Payload made of the
 * broken stream.
 */
export function withBodyLimit<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    if (!request.body) return handler(request, ...args)
    try {
      const isUpload =
        UPLOAD_PATH.test(new URL(request.url).pathname) && (request.headers.get('content-type') ?? '').startsWith('multipart/form-data')
      if (isUpload) {
        const maxBytes = env().MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES
        const capped = withCappedBody(request, maxBytes)
        const response = await handler(capped.request, ...args)
        if (capped.overflowed()) throw bodyTooLarge(maxBytes)
        return response
      }
      const body = await readBodyBytes(request, env().MAX_JSON_BODY_BYTES)
      return handler(new Request(request, { body } as RequestInit), ...args)
    } catch (error) {
      return errorResponse(error, request)
    }
  }
}
