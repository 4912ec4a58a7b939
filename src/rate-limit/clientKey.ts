import { isIP } from 'node:net'

/**
 * The identity a request is rate-limited under: its client IP.
 *
 * - `trustedProxyHops: 0` (no proxy in front): the socket address only; forwarding headers are
 *   ignored, since anyone can send them.
 * - `trustedProxyHops: N`: N reverse proxies in front, each appending the address it saw to
 *   `X-Forwarded-For`, the last one being the socket peer. The client is the Nth address from the
 *   right of `X-Forwarded-For`; everything left of it was written by the client and is not trusted.
 *   A shorter list (a proxy that did not append) falls back to its leftmost valid address, then the
 *   socket address.
 * - Nothing usable (no socket address known): 'unknown'.
 *
 * IPv6 clients are keyed by their network prefix (/64 by default): one host usually owns a whole /64,
 * so keying by full address would let it rotate through addresses to escape the limit.
 * IPv4-mapped IPv6 addresses (`::ffff:203.0.113.7`) count as the IPv4 address.
 */
export type ClientKeyOptions = {
  trustedProxyHops: number
  remoteAddress?: string | null
  /** Bits of an IPv6 address that identify a client: 1..128, default 64. 128 keys by full address. */
  ipv6PrefixLength?: number
}

export const UNKNOWN_CLIENT = 'unknown'

export function clientKey(headers: Headers, options: ClientKeyOptions): string {
  const prefixLength = options.ipv6PrefixLength ?? 64
  if (!Number.isInteger(prefixLength) || prefixLength < 1 || prefixLength > 128) {
    throw new Error('ipv6PrefixLength must be an integer from 1 to 128')
  }
  if (!Number.isInteger(options.trustedProxyHops) || options.trustedProxyHops < 0) {
    throw new Error('trustedProxyHops must be a whole number, 0 or more')
  }
  const toKey = (ip: string) => (isIP(ip) === 6 ? ipv6Network(ip, prefixLength) : ip)
  const remote = normalizeIp(options.remoteAddress ?? '')

  if (options.trustedProxyHops > 0) {
    const hops = (headers.get('x-forwarded-for') ?? '').split(',')
    const client = hops.length >= options.trustedProxyHops ? normalizeIp(hops[hops.length - options.trustedProxyHops] as string) : undefined
    if (client) return toKey(client)
    const leftmost = hops.map(normalizeIp).find(Boolean)
    if (leftmost) return toKey(leftmost)
  }
  return remote ? toKey(remote) : UNKNOWN_CLIENT
}

/**
 * A bare, canonical IP from one header item, or undefined: accepts `1.2.3.4`, `1.2.3.4:5678`,
 * `2001:db8::1`, `[2001:db8::1]:443` and quoted forms; drops IPv6 zone ids; unmaps IPv4-mapped IPv6.
 */
export function normalizeIp(raw: string): string | undefined {
  let text = raw.trim().replace(/^"(.*)"$/, '$1')
  if (text === '' || text.length > 100) return undefined
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text)
  if (bracketed) text = bracketed[1] as string
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  text = text.replace(/%.*$/, '')
  const version = isIP(text)
  if (version === 4) return text
  if (version !== 6) return undefined
  const groups = expandIpv6(text)
  if (!groups) return undefined
  // ::ffff:a.b.c.d → a.b.c.d
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6] as number, groups[7] as number]
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
  }
  return groups.map((group) => group.toString(16)).join(':')
}

/** The eight 16-bit groups of a valid IPv6 address (embedded IPv4 tail allowed). */
function expandIpv6(address: string): number[] | undefined {
  const parseSide = (side: string): number[] => {
    if (side === '') return []
    const parts = side.split(':')
    const groups: number[] = []
    for (const [index, part] of parts.entries()) {
      if (part.includes('.') && index === parts.length - 1) {
        const octets = part.split('.').map(Number)
        groups.push(((octets[0] as number) << 8) | (octets[1] as number), ((octets[2] as number) << 8) | (octets[3] as number))
      } else {
        groups.push(Number.parseInt(part, 16))
      }
    }
    return groups
  }
  const halves = address.toLowerCase().split('::')
  if (halves.length > 2) return undefined
  const head = parseSide(halves[0] as string)
  const tail = halves.length === 2 ? parseSide(halves[1] as string) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined
  const groups = [...head, ...Array<number>(Math.max(0, missing)).fill(0), ...tail]
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined
}

/** `2001:db8:1:2:0:0:0:0/64` for prefix 64; the address itself for 128. */
function ipv6Network(address: string, prefixLength: number): string {
  if (prefixLength === 128) return address
  const groups = expandIpv6(address) ?? []
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, prefixLength - index * 16))
    return bits === 16 ? group : bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff
  })
  return `${masked.map((group) => group.toString(16)).join(':')}/${prefixLength}`
}
