import 'server-only'

import { env } from '@/env'
import { declaresMoreThan, readAtMost } from '@/upstreams/outbound'

import { HttpError } from './errors'

export const bodyTooLarge = (maxBytes: number) => new HttpError(413, `The body is larger than ${maxBytes} bytes`)

/** The request's body, or a 413 HttpError as soon as it passes `maxBytes` (see readAtMost in src/upstreams/outbound.ts). */
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
