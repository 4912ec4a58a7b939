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
