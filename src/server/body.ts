import { env } from '@/env'

import { HttpError } from './errors'

/** True when the message declares a Content-Length above `maxBytes`: refuse it before reading a byte. */
export const declaresMoreThan = (message: Request | Response, maxBytes: number) => Number(message.headers.get('content-length') ?? 0) > maxBytes

/**
 * The body of a request or response, read chunk by chunk and abandoned as soon as it passes
 * `maxBytes` (a chunked body has no Content-Length to check first), so a huge body never sits in
 * memory; `undefined` when it is too large. A declared Content-Length over the limit is refused
 * before a byte is read.
 */
export async function readAtMost(message: Request | Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!message.body) return new Uint8Array()
  if (declaresMoreThan(message, maxBytes)) {
    await message.body.cancel().catch(() => undefined)
    return undefined
  }
  const reader = message.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

export const bodyTooLarge = (maxBytes: number) => new HttpError(413, `The body is larger than ${maxBytes} bytes`)

/** The request's body, or a 413 HttpError as soon as it passes `maxBytes` (see readAtMost). */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readAtMost(request, maxBytes)
  if (!bytes) throw bodyTooLarge(maxBytes)
  return bytes
}

/** The request's JSON body, or a 400/413 HttpError; validate the result with zod afterwards. */
export async function readJsonBody(request: Request, maxBytes = env().MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyBytes(request, maxBytes)
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
  } catch {
    throw new HttpError(400, 'The body must be JSON')
  }
}

/**
 * `request` with its body passed through a counter that fails the stream past `maxBytes`;
 * `overflowed()` tells afterwards whether it did. For bodies too large to buffer (uploads).
 */
export function withCappedBody(request: Request, maxBytes: number): { request: Request; overflowed: () => boolean } {
  if (declaresMoreThan(request, maxBytes)) throw bodyTooLarge(maxBytes)
  if (!request.body) return { request, overflowed: () => false }
  let size = 0
  let overflow = false
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength
      if (size > maxBytes) {
        overflow = true
        controller.error(bodyTooLarge(maxBytes))
        return
      }
      controller.enqueue(chunk)
    },
  })
  const capped = new Request(request, { body: request.body.pipeThrough(counter), duplex: 'half' } as RequestInit)
  return { request: capped, overflowed: () => overflow }
}
