import type { IncomingMessage, ServerResponse } from 'node:http'

import { LRUCache } from 'lru-cache'

import { chooseEncoding } from './precompressed'

/**
 * Next gzips every answer as it sends it, a page from its cache too: the same bytes compressed
 * again for each reader, most of what a cached page costs the server's one thread. A whole answer
 * that Next labels with an ETag (a prerendered or cached page, sent in one piece with its length)
 * is gzipped by Next once; the gzipped bytes are kept by URL, ETag and length, and later answers
 * with the same label are sent as they are. Next's compression sees an encoded answer and leaves
 * it alone. Streamed answers (no ETag, no length) are not touched.
 */
const MAX_CACHED_BYTES = 32 * 1024 * 1024
const MAX_PAGE_BYTES = 1024 * 1024

const compressedPages = new LRUCache<string, Buffer>({ maxSize: MAX_CACHED_BYTES, sizeCalculation: (bytes) => bytes.length })

type Chunk = string | Uint8Array

const asBuffer = (chunk: Chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
const isChunk = (value: unknown): value is Chunk => typeof value === 'string' || value instanceof Uint8Array

/**
 * Called by the edge for a request it hands to Next, before Next wraps the response in its
 * compression (so what passes here is what goes on the wire).
 */
export function reuseCompressedPages(request: IncomingMessage, response: ServerResponse) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return
  // Next's compression sends gzip to whoever takes it; the kept bytes are gzip only.
  if (chooseEncoding(request.headers['accept-encoding'], ['gzip']) !== 'gzip') return
  // The whole URL: an ETag is only as unique as whoever set it (a version can stand for several queries' answers).
  const url = request.url ?? '/'
  const { setHeader, write, end } = response
  let key: string | undefined
  let kept: Buffer | undefined
  let captured: Buffer[] | undefined
  let capturedBytes = 0
  const capture = (chunk: unknown) => {
    if (!captured || !isChunk(chunk)) return
    const bytes = asBuffer(chunk)
    capturedBytes += bytes.length
    if (capturedBytes > MAX_PAGE_BYTES) captured = undefined
    else captured.push(Buffer.from(bytes))
  }

  // Next sets the length of a whole answer just before it sends it, after its ETag (and after a 304).
  response.setHeader = function (this: ServerResponse, name: string, value: number | string | readonly string[]) {
    if (key === undefined && name.toLowerCase() === 'content-length' && this.statusCode === 200 && !this.hasHeader('content-encoding')) {
      const etag = this.getHeader('etag')
      if (typeof etag === 'string') {
        key = `${url}\n${etag}\n${String(value)}`
        kept = compressedPages.get(key)
        if (kept) {
          setHeader.call(this, 'Content-Encoding', 'gzip')
          return setHeader.call(this, 'Content-Length', kept.length)
        }
        if (request.method === 'GET') captured = []
      }
    }
    return setHeader.call(this, name, value)
  } as typeof response.setHeader

  response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    capture(chunk)
    return Reflect.apply(write, this, [chunk, ...rest]) as boolean
  } as typeof response.write

  response.end = function (this: ServerResponse, ...args: unknown[]) {
    const callback = args.find((arg): arg is () => void => typeof arg === 'function')
    if (kept) return Reflect.apply(end, this, [request.method === 'HEAD' ? undefined : kept, callback]) as ServerResponse
    if (captured) {
      capture(args[0])
      if (captured && capturedBytes > 0 && key && this.statusCode === 200 && this.getHeader('content-encoding') === 'gzip') {
        compressedPages.set(key, Buffer.concat(captured, capturedBytes))
      }
      captured = undefined
    }
    return Reflect.apply(end, this, args) as ServerResponse
  } as typeof response.end
}
