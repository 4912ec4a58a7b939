// Entity texts the broker holds in several languages (NGSI-LD LanguageProperty): the server keeps
// every language beside the attribute (`name@languages`, see languagesProperty in src/ngsi), and
// the reader's page shows its own. Browser-safe: no server imports.
import type { Feature } from '@/ngsi'

const SUFFIX = '@languages'

type LanguageMap = Record<string, unknown>

/** A language map as features carry it: an object, or its JSON (vector tiles hold scalars only). */
function languageMapOf(value: unknown): LanguageMap | undefined {
  if (typeof value === 'string') {
    try {
      return languageMapOf(JSON.parse(value))
    } catch {
      return undefined
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as LanguageMap) : undefined
}

const language = (tag: string) => tag.split('-')[0].toLowerCase()

/** The text of `map` for `locale` (exact tag, else any tag of the same language: `pt` finds `pt-PT`), else for each of `fallbacks` in order. */
export function pickText(map: LanguageMap, locale: string, fallbacks: readonly string[] = []): string | undefined {
  for (const wanted of [locale, ...fallbacks]) {
    const tag = wanted in map ? wanted : Object.keys(map).find((candidate) => language(candidate) === language(wanted))
    const text = tag === undefined ? undefined : map[tag]
    if (typeof text === 'string' && text) return text
  }
  return undefined
}

/**
 * `feature` with each multilingual attribute's text in `locale` (else in one of `fallbacks`, else
 * the server's pick stays), and without the language maps; the same object when it has none.
 */
export function inLanguage(feature: Feature, locale: string, fallbacks: readonly string[] = []): Feature {
  const names = Object.keys(feature.properties).filter((key) => key.endsWith(SUFFIX))
  if (names.length === 0) return feature
  const properties = { ...feature.properties }
  for (const key of names) {
    const map = languageMapOf(properties[key])
    delete properties[key]
    const text = map && pickText(map, locale, fallbacks)
    if (text !== undefined) properties[key.slice(0, -SUFFIX.length)] = text
  }
  return { ...feature, properties }
}

/** Features in `locale` (see inLanguage). */
export const featuresInLanguage = (features: Feature[], locale: string, fallbacks: readonly string[] = []): Feature[] =>
  features.map((feature) => inLanguage(feature, locale, fallbacks))
