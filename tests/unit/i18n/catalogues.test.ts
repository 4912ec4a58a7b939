import { readFileSync } from 'node:fs'
import path from 'node:path'

import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, it } from 'vitest'

import { LOCALES } from '@/i18n/locales'
import en from '@/i18n/messages/en.json'
import es from '@/i18n/messages/es.json'
import pt from '@/i18n/messages/pt.json'

type Catalogue = { [key: string]: string | Catalogue }

const catalogues: Record<string, Catalogue> = { en, es, pt }

/** Every message of a catalogue by its dotted key. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, unknown> {
  const messages = new Map<string, unknown>()
  for (const [key, value] of Object.entries(catalogue)) {
    const name = prefix ? `${prefix}.${key}` : key
    if (value !== null && typeof value === 'object') for (const entry of flatten(value, name)) messages.set(...entry)
    else messages.set(name, value)
  }
  return messages
}

/** An empty namespace has no messages but is a key all the same. */
function namespaces(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? [`${prefix}${key}`, ...namespaces(value, `${prefix}${key}.`)] : [],
  )
}

type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] }

/** The arguments and tags a message uses, by name (`{name}`, `{count, plural, …}`, `<time>…</time>`). */
function placeholders(message: string, locale: string): Set<string> {
  const names = new Set<string>()
  const visit = (elements: Element[]) => {
    for (const element of elements) {
      // 0 is literal text and 7 a plural's `#`; every other element is named.
      if (element.type !== 0 && element.type !== 7 && typeof element.value === 'string') names.add(element.type === 8 ? `<${element.value}>` : element.value)
      for (const option of Object.values(element.options ?? {})) visit(option.value)
      if (element.children) visit(element.children)
    }
  }
  visit(new IntlMessageFormat(message, locale).getAst() as Element[])
  return names
}

const english = flatten(en)

describe('message catalogues', () => {
  it('exist for every locale of the site', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LOCALES].sort())
  })

  describe.each(LOCALES.filter((locale) => locale !== 'en'))('%s', (locale) => {
    const messages = flatten(catalogues[locale]!)

    it('has exactly the keys of en.json', () => {
      expect([...messages.keys()].sort()).toEqual([...english.keys()].sort())
      expect(namespaces(catalogues[locale]!).sort()).toEqual(namespaces(en).sort())
    })

    it('has every message as text, none empty', () => {
      for (const [key, message] of messages) expect(typeof message === 'string' && message.trim() !== '', key).toBe(true)
    })

    it('uses every placeholder and tag of the English message', () => {
      for (const [key, message] of english) {
        const translated = messages.get(key)
        if (typeof translated !== 'string') continue
        const missing = [...placeholders(message as string, 'en')].filter((name) => !placeholders(translated, locale).has(name))
        expect(missing, key).toEqual([])
      }
    })
  })

  it('has English messages that are all valid ICU and none empty', () => {
    for (const [key, message] of english) {
      expect(typeof message === 'string' && message.trim() !== '', key).toBe(true)
      expect(() => placeholders(message as string, 'en'), key).not.toThrow()
    }
  })

  // The weather route reads these itself, not through a translator, and the build compiles the
  // catalogues: only a message without ICU syntax stays the text it is written as.
  it.each(LOCALES)('has weather conditions in %s that are plain text', (locale) => {
    for (const [key, message] of flatten(catalogues[locale]!.weatherConditions as Catalogue)) {
      const ast = new IntlMessageFormat(message as string, locale).getAst() as Element[]
      expect(ast.length === 1 && ast[0]!.type === 0 && ast[0]!.value === message, key).toBe(true)
    }
  })

  it("lists the same locales in next.config.mjs's rewrites as src/i18n/locales.ts", () => {
    const config = readFileSync(path.join(import.meta.dirname, '../../../next.config.mjs'), 'utf8')
    const line = /const LOCALES = (\[[^\]]*\])/.exec(config)
    expect(line, 'next.config.mjs has a `const LOCALES = [...]` line').not.toBeNull()
    const listed = JSON.parse(line![1]!.replaceAll("'", '"')) as string[]
    expect(listed).toEqual([...LOCALES])
  })
})
