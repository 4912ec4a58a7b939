import { describe, expect, it } from 'vitest'

import { feedbackSchema, sameSitePageUrl } from '@/feedback/entry/accessibilityForm'

const SITE = 'https://dashboard.city.example'

describe('sameSitePageUrl', () => {
  it.each([
    ['/posts', '/posts'],
    ['/pt/posts?city=porto#map', '/pt/posts?city=porto#map'],
    [`${SITE}/en/accessibility`, '/en/accessibility'],
    [`${SITE}`, '/'],
  ])('keeps %s of this site as %s', (raw, path) => {
    expect(sameSitePageUrl(raw, SITE)).toBe(path)
  })

  it.each(['https://evil.example/', 'http://dashboard.city.example/', '//evil.example', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)', 'posts', ''])(
    'refuses %j',
    (raw) => {
      expect(sameSitePageUrl(raw, SITE)).toBeUndefined()
    },
  )
})

describe('feedbackSchema', () => {
  const schema = feedbackSchema(SITE)
  const valid = { description: 'The chart has no text alternative.', elapsedMs: 5000 }

  it('trims, drops an empty page and address, and keeps line breaks', () => {
    expect(schema.parse({ ...valid, description: '  Line one\nline two  ', pageUrl: ' ', email: '' })).toMatchObject({
      description: 'Line one\nline two',
      pageUrl: undefined,
      email: undefined,
    })
  })

  it.each([
    ['control characters', { description: 'Bell \u0007 rings here, loudly' }],
    ['another site', { pageUrl: 'https://evil.example' }],
    ['an unknown field', { role: 'admin' }],
    ['a negative fill time', { elapsedMs: -1 }],
  ])('refuses %s', (_, extra) => {
    expect(schema.safeParse({ ...valid, ...extra }).success).toBe(false)
  })
})
