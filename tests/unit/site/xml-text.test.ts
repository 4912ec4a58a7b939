import { describe, expect, it } from 'vitest'

import { xmlText } from '@/site/xmlText'

describe('xmlText: what an XML 1.0 document (the news feed) can hold', () => {
  it('drops every C0 control but tab, line feed and carriage return', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('')
    expect(xmlText(`a${controls}b`)).toBe('a\t\n\rb')
  })

  it('drops U+FFFE, U+FFFF and lone surrogates, keeps paired ones (emoji) and other scripts', () => {
    expect(xmlText('x\uFFFEy\uFFFFz')).toBe('xyz')
    expect(xmlText('a\uD800b\uDC00c')).toBe('abc')
    expect(xmlText('Calidad del aire 🌬️ — São Paulo, 東京')).toBe('Calidad del aire 🌬️ — São Paulo, 東京')
  })

  it('keeps DEL and C1 controls, which XML 1.0 allows', () => {
    expect(xmlText('a\u007F\u0085b')).toBe('a\u007F\u0085b')
  })
})
