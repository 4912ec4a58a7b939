import 'server-only'

/**
 * The Content-Security-Policy of an answer. Citizens' pages are prerendered and served from the
 * cache, so a per-request nonce (which makes every page dynamic) is not used; Next's inline
 * flight scripts differ per page and render, so hashes cannot be listed ahead either. Scripts
 * therefore come from this origin and inline only, never from another host; no plugins, no
 * foreign base or form targets, no framing by others. The basemap style is chosen in the admin
 * and may load tiles and glyphs from any https host; MapLibre runs its worker from a blob or
 * /vendor. The admin additionally frames the site for live preview. Plain http is allowed only
 * on loopback, as for basemap URLs (a tile server on the same machine).
 */
const LOOPBACK = 'http://localhost:* http://127.0.0.1:*'

export function contentSecurityPolicy({ path, https }: { path: string; https: boolean }): string {
  const isAdmin = path === '/admin' || path.startsWith('/admin/')
  const directives = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https: ${LOOPBACK}`,
    "font-src 'self' data:",
    `connect-src 'self' https: ${LOOPBACK}`,
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    isAdmin ? "frame-src 'self'" : "frame-src 'none'",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    "manifest-src 'self'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ]
  return directives.join('; ')
}
