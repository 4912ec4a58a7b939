import type { IncomingMessage, ServerResponse } from 'node:http'

import pLimit from 'p-limit'

/**
 * Next's image optimizer encodes on a cache miss whoever else is encoding the same image: 50
 * requests at once for one width were 50 encodes, and 90 requests for 30 widths of a 12 Mpx photo
 * took the server's peak memory up by 860 MB. Optimized-image requests are therefore let through
 * a few at a time (each holds its place until its answer is sent), and a request for an image
 * and format already being made waits for that one, then is answered from the cache.
 */
export function createImageGate({ concurrency, maxWaiting }: { concurrency: number; maxWaiting: number }) {
  const limit = pLimit(concurrency)
  const making = new Map<string, Promise<void>>()

  /** Runs `pass` (hand the request on to Next) in turn; false when too many wait already (the caller answers 503). */
  return function admit(request: IncomingMessage, response: ServerResponse, pass: () => void): boolean {
    if (limit.pendingCount >= maxWaiting) return false
    // Next picks the format from Accept (webp when offered): same URL, same format, same bytes.
    const key = `${request.url}|${/image\/webp/.test(request.headers.accept ?? '') ? 'webp' : 'original'}`
    const answered = () => new Promise<void>((resolve) => response.once('close', resolve))
    const first = making.get(key)
    const run = async () => {
      if (first) await first
      await limit(() => {
        if (response.destroyed) return undefined
        const sent = answered()
        pass()
        return sent
      })
    }
    const done = run()
    if (!first) {
      making.set(key, done)
      void done.finally(() => making.get(key) === done && making.delete(key))
    }
    return true
  }
}
