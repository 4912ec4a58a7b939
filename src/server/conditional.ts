/**
 * Whether the client's copy is current: an If-None-Match header lists `etag` (or `*`). Weak
 * comparison, as for any GET: a `W/` prefix is ignored.
 */
export function clientHasCurrent(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '')
    return candidate === '*' || candidate === etag
  })
}
