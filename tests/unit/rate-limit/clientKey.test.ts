import { describe, expect, it } from 'vitest'

import { clientKey, normalizeIp } from '@/rate-limit'

const headers = (values: Record<string, string>) => new Headers(values)

describe('clientKey behind N trusted proxies', () => {
  const oneProxy = { trustedProxyHops: 1, remoteAddress: '10.0.0.2' }
  const twoProxies = { trustedProxyHops: 2, remoteAddress: '10.0.0.2' }

  it('takes the Nth address from the right of X-Forwarded-For, whatever the client put left of it', () => {
    expect(clientKey(headers({ 'x-forwarded-for': '203.0.113.7' }), oneProxy)).toBe('203.0.113.7')
    expect(clientKey(headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7' }), oneProxy)).toBe('203.0.113.7')
    expect(clientKey(headers({ 'x-forwarded-for': 'garbage, 1.1.1.1, 203.0.113.7:51234' }), oneProxy)).toBe('203.0.113.7')
    expect(clientKey(headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.1' }), twoProxies)).toBe('203.0.113.7')
  })

  it('joins repeated X-Forwarded-For headers in order', () => {
    const h = new Headers()
    h.append('x-forwarded-for', '6.6.6.6')
    h.append('x-forwarded-for', '198.51.100.9')
    expect(clientKey(h, oneProxy)).toBe('198.51.100.9')
  })

  it('falls back to the leftmost valid address of a short list, then the socket; never a shared bucket when a socket is known', () => {
    expect(clientKey(headers({ 'x-forwarded-for': '198.51.100.5' }), twoProxies)).toBe('198.51.100.5')
    expect(clientKey(headers({ 'x-forwarded-for': 'garbage' }), oneProxy)).toBe('10.0.0.2')
    expect(clientKey(headers({}), oneProxy)).toBe('10.0.0.2')
    expect(clientKey(headers({}), { trustedProxyHops: 1 })).toBe('unknown')
  })

  it('keys IPv6 clients by /64 network by default', () => {
    const a = clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2::1' }), oneProxy)
    const b = clientKey(headers({ 'x-forwarded-for': '[2001:DB8:1:2:ffff::9]:443' }), oneProxy)
    expect(a).toBe('2001:db8:1:2:0:0:0:0/64')
    expect(b).toBe(a)
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:3::1' }), oneProxy)).not.toBe(a)
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2::1' }), { ...oneProxy, ipv6PrefixLength: 128 })).toBe('2001:db8:1:2:0:0:0:1')
    expect(clientKey(headers({ 'x-forwarded-for': '2001:db8:1:2ff::1' }), { ...oneProxy, ipv6PrefixLength: 56 })).toBe('2001:db8:1:200:0:0:0:0/56')
  })

  it('treats IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKey(headers({}), { trustedProxyHops: 0, remoteAddress: '::ffff:127.0.0.1' })).toBe('127.0.0.1')
    expect(clientKey(headers({ 'x-forwarded-for': '::ffff:cb00:7107' }), oneProxy)).toBe('203.0.113.7')
  })
})

describe('clientKey without a trusted proxy', () => {
  it('ignores spoofed forwarding headers: single, lists and garbage', () => {
    for (const forged of ['1.2.3.4', '1.2.3.4, 5.6.7.8', 'garbage', ', ,']) {
      expect(clientKey(headers({ 'x-forwarded-for': forged, 'x-real-ip': '5.6.7.8' }), { trustedProxyHops: 0, remoteAddress: '198.51.100.20' })).toBe(
        '198.51.100.20',
      )
    }
  })

  it('gives rotating spoofed headers no fresh identities', () => {
    const keys = new Set(
      Array.from({ length: 20 }, (_, i) =>
        clientKey(headers({ 'x-forwarded-for': `10.9.8.${i}` }), { trustedProxyHops: 0, remoteAddress: '198.51.100.20' }),
      ),
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

  it('rejects a bad prefix length or hop count', () => {
    expect(() => clientKey(new Headers(), { trustedProxyHops: 0, ipv6PrefixLength: 0 })).toThrow()
    expect(() => clientKey(new Headers(), { trustedProxyHops: -1 })).toThrow()
  })
})
