import { BlockList, isIP } from 'node:net'

// Loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT, unspecified, multicast
// and reserved ranges: an editor's URL pointing there would make the server (or the broker) reach
// into the city's own network.
const internal = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6')
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i

/** Whether `hostname` (a URL's, brackets allowed) names a loopback, private or link-local host. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '')
  const version = isIP(host)
  if (version === 4) return internal.check(host, 'ipv4')
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)
    return mapped ? internal.check(mapped[1] as string, 'ipv4') : internal.check(host, 'ipv6')
  }
  // A bare name without dots (e.g. `metadata`) resolves inside the local network only.
  return !host.includes('.') || INTERNAL_NAMES.test(host)
}

// RFC 3986's characters (unreserved, reserved, percent-encodings) and its Appendix B split.
const RFC3986_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/
const RFC3986_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?/

/**
 * Whether an RFC 3986 parser (libcurl, the broker's HTTP client) reads the same host and port as
 * the WHATWG parser this check uses. They differ on characters RFC 3986 does not allow:
 * `http://example.org\@127.0.0.1/` is example.org to WHATWG (`\` is `/`) but 127.0.0.1 to libcurl
 * (everything before `@` is a user name), so such a URL would pass the host check and reach another host.
 */
function parsersAgree(value: string, url: URL): boolean {
  if (!RFC3986_CHARACTERS.test(value)) return false
  const authority = RFC3986_PARTS.exec(value)?.[2]
  if (authority === undefined || authority.includes('@')) return false
  const [, host = '', port = ''] = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority) ?? []
  const defaultPort = url.protocol === 'https:' ? '443' : '80'
  return host.toLowerCase() === url.hostname && (port === '' || port === defaultPort ? '' : String(Number(port))) === url.port
}

/**
 * Why an editor-entered URL that the server fetches or forwards is refused, or undefined.
 * `allowInternal` is the operator's ALLOW_PRIVATE_OUTBOUND_HOSTS.
 */
export function outboundUrlProblem(value: string, allowInternal: boolean): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'Not a URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs'
  if (url.username || url.password) return 'URLs may not carry a user name or password'
  if (!parsersAgree(value, url)) return 'Write the URL with RFC 3986 characters only (no backslash, space or user name), the host in ASCII'
  if (!allowInternal && isInternalHost(url.hostname)) return 'Loopback, private and link-local hosts are not allowed'
  return undefined
}
