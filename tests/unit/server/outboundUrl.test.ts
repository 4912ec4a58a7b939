import { describe, expect, it } from 'vitest'

import { outboundUrlProblem } from '@/server/outboundUrl'

describe('outboundUrlProblem', () => {
  it.each([
    'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld',
    'https://smartdatamodels.org/context.jsonld',
    'http://context.example:8080/a/b.jsonld?version=2#top',
    'https://CONTEXT.example/ctx.jsonld',
    'https://context.example:443/ctx.jsonld',
    'https://context.example/a%20b.jsonld',
    'http://context.example/path@with-at.jsonld',
  ])('accepts %s', (url) => {
    expect(outboundUrlProblem(url, false)).toBeUndefined()
  })

  it.each([
    // WHATWG reads the host as example.org; RFC 3986 parsers (libcurl) read 127.0.0.1.
    ['http://example.org\\@127.0.0.1/ctx.jsonld', /RFC 3986/],
    ['http://example.org:80\\@127.0.0.1:6379/', /RFC 3986/],
    ['http://example.org\\.127.0.0.1/', /RFC 3986/],
    ['http://example.org /@127.0.0.1/', /RFC 3986|user name|Not a URL/],
    ['http://example.org\t@127.0.0.1/', /RFC 3986|user name/],
    ['http://exämple.org/ctx.jsonld', /RFC 3986/],
    ['http://example.org%5C@127.0.0.1/', /user name/],
    ['http://user:pass@example.org/', /user name/],
    ['http://127.0.0.1/ctx.jsonld', /Loopback/],
    ['ftp://example.org/', /http/],
    ['not a url', /Not a URL/],
  ])('refuses %s', (url, problem) => {
    expect(outboundUrlProblem(url, false)).toMatch(problem)
  })

  it('still refuses URLs the parsers read differently when private hosts are allowed', () => {
    expect(outboundUrlProblem('http://example.org\\@127.0.0.1/', true)).toMatch(/RFC 3986/)
    expect(outboundUrlProblem('http://127.0.0.1:1026/ctx.jsonld', true)).toBeUndefined()
  })
})
