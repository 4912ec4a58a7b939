import { HttpError } from '@/utilities/httpErrors'

const DEFAULT_MAX_BYTES = 64 * 1024

/** The request's JSON body, or a 400/413 HttpError; validate the result with zod afterwards. */
export async function readJsonBody(request: Request, maxBytes = DEFAULT_MAX_BYTES): Promise<unknown> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw new HttpError(413, `The body is larger than ${maxBytes} bytes`)
  const text = await request.text()
  if (Buffer.byteLength(text) > maxBytes) throw new HttpError(413, `The body is larger than ${maxBytes} bytes`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, 'The body must be JSON')
  }
}
