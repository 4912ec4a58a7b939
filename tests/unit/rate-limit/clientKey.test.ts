import { describe, expect, it } from 'vitest'

import { clientKey, normalizeIp } from '@/rate-limit'

const headers = (values: Record<string, string>) => new Headers(values)

describe('clientKey behind a trusted proxy', () => {
  const trusted = { trustProxy: true, remoteAddress: '10.0.0.2' }

  it('takes the first valid X-Forwarded-For address', () => {
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }), trusted)).toBe('203.0.113.7')
    expect(clientKey(headers({ 'x-forwarded-for': 'unknown, nonsense, 198.51.100.4, 10.0.0.1' }), trusted)).toBe('198.51.100.4')
    expect(clientKey(headers({ 'x-forwarded-for': '  203.0.113.7:51234 ' }), trusted)).toBe('203.0.113.7')
    expect(clientKey(headers({ 'x-forwarded-for': '999.1.1.1, 198.51.100.4' }), trusted)).toBe('198.51.100.4')
  })

  it('joins repeated X-Forwarded-For headers in order', () => {
    const h = new Headers()
    h.append('x-forwarded-for', 'junk')
    h.append('x-forwarded-for', '198.51.100.9')
    expect(clientKey(h, trusted)).toBe('198.51.100.9')
  })

  it('falls back to X-Real-IP, then the socket address, then unknown', () => {
    expect(clientKey(headers({ 'x-forwarded-for': 'garbage', 'x-real-ip': '198.51.100.5' }), trusted)).toBe('198.51.100.5')
    expect(clientKey(headers({ 'x-real-ip': 'not-an-ip' }), trusted)).toBe('10.0.0.2')
    expect(clientKey(headers({}), trusted)).toBe('10.0.0.2')
    expect(clientKey(headers({}), { trustProxy: true })).toBe('unknown')
    expect(clientKey(headers({}), { trustProxy: true, remoteAddress: 'garbage' })).toBe('unknown')
  })

  it('keys IPv6 clients by /64 network by default', () => {
    const a = clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2::1' }), trusted)
    const b = clientKey(headers({ 'x-forwarded-for': '[2001:DB8:1:2:ffff::9]:443' }), trusted)
    expect(a).toBe('2001:db8:1:2:0:0:0:0/64')
    expect(b).toBe(a)
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:3::1' }), trusted)).not.toBe(a)
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2::1' }), { ...trusted, ipv6PrefixLength: 128 })).toBe('2001:db8:1:2:0:0:0:1')
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2ff::1' }), { ...trusted, ipv6PrefixLength: 56 })).toBe('2001:db8:1:200:0:0:0:0/56')
  })

  it('treats IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKey(headers({}), { trustProxy: false, remoteAddress: '::ffff:127.0.0.1' })).toBe('127.0.0.1')
    expect(clientKey(headers({ 'x-forwarded-for': '::ffff:cb00:7107' }), trusted)).toBe('203.0.113.7')
  })
})

describe('clientKey without a trusted proxy', () => {
  it('ignores spoofed forwarding headers', () => {
    const spoofed = headers({ 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '5.6.7.8' })
    expect(clientKey(spoofed, { trustProxy: false, remoteAddress: '198.51.100.20' })).toBe('198.51.100.20')
    expect(clientKey(spoofed, { trustProxy: false })).toBe('unknown')
  })

  it('gives rotating spoofed headers no fresh identities', () => {
    const keys = new Set(
      Array.from({ length: 20 }, (_, i) => clientKey(headers({ 'x-forwarded-for': `10.9.8.${i}` }), { trustProxy: false, remoteAddress: '198.51.100.20' })),
    )
    expect([...keys]).toEqual(['198.51.100.20'])
  })
})

describe('normalizeIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['"1.2.3.4"', '1.2.3.4'],
    ['1.2.3.4:80', '1.2.3.4'],
    ['[::1]', '0:0:0:0:0:0:0:1'],
    ['[::1]:8080', '0:0:0:0:0:0:0:1'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0:0:0:c000:221'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['', undefined],
    ['localhost', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['::1::2', undefined],
    ['<script>', undefined],
    ['1'.repeat(200), undefined],
  ])('%s → %s', (input, output) => {
    expect(normalizeIp(input)).toBe(output)
  })

  it('rejects a bad prefix length', () => {
    expect(() => clientKey(new Headers(), { trustProxy: false, ipv6PrefixLength: 0 })).toThrow()
  })
})
