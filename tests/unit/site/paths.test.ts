import { describe, expect, it } from 'vitest'

import { absoluteUrl, sameSitePath } from '@/site/paths'

describe('sameSitePath', () => {
  it.each([
    ['/', '/'],
    ['/about', '/about'],
    ['/posts/a?x=1#top', '/posts/a?x=1#top'],
    ['/städte', '/st%C3%A4dte'],
    ['/a/../b', '/b'],
  ])('keeps %s as %s', (input, output) => {
    expect(sameSitePath(input)).toBe(output)
  })

  it.each(['', 'about', '//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', '\t//evil.example', '/ /evil.example', 'https://evil.example', 'javascript:alert(1)', '/a\u0000b',
    // Dot segments that collapse into a scheme-relative URL once normalised.
    '/.//evil.example', '/./\\evil.example', '/a/..//evil.example', '/%2e//evil.example', '/%2E%2E//evil.example', '/x/.././/evil.example', '/.///evil.example/path?q#h'])(
    'refuses %j',
    (input) => {
      expect(sameSitePath(input)).toBeUndefined()
    },
  )
})

describe('absoluteUrl', () => {
  it.each([
    ['/sitemap.xml', 'https://city.example', 'https://city.example/sitemap.xml'],
    ['/sitemap.xml', 'https://city.example/', 'https://city.example/sitemap.xml'],
    ['/', 'http://127.0.0.1:3000', 'http://127.0.0.1:3000/'],
    ['/posts/tram-línea-3', 'https://city.example', 'https://city.example/posts/tram-l%C3%ADnea-3'],
  ])('puts %s on %s', (path, publicUrl, url) => {
    expect(absoluteUrl(path, publicUrl)).toBe(url)
  })
})
