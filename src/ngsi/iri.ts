// Names that come back as full IRIs (a term missing from the @context we sent) and the
// reverse lookup IRI → term from a JSON-LD @context document.

/** IRI → short term, e.g. from `contextTermsFrom(await loadContext())`. */
export type ContextTerms = Readonly<Record<string, string>>

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/** A known term, else the `#fragment` or last path segment of an absolute IRI; other names as they are. */
export function shortName(name: string, terms?: ContextTerms): string {
  const known = terms?.[name]
  if (known) return known
  if (!ABSOLUTE_IRI.test(name)) return name
  // `…terms.jsonld#/definitions/temperature`: the last segment of the fragment.
  const tail = name.slice(name.lastIndexOf('#') + 1).replace(/\/+$/, '')
  const segment = tail.slice(tail.lastIndexOf('/') + 1)
  return segment || name
}

/**
 * Reverse term map of a JSON-LD context (a document with `@context`, a context object or an
 * array of them). Compact IRIs (`schema:name`) are expanded with the prefixes it defines.
 */
export function contextTermsFrom(context: unknown): Record<string, string> {
  const definitions: Record<string, string> = {}
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect)
    if (!value || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    if ('@context' in record) return collect(record['@context'])
    for (const [term, definition] of Object.entries(record)) {
      if (term.startsWith('@')) continue
      const iri = typeof definition === 'string' ? definition : (definition as { '@id'?: unknown } | null)?.['@id']
      if (typeof iri === 'string' && !iri.startsWith('@')) definitions[term] = iri
    }
  }
  collect(context)
  const expand = (iri: string): string => {
    const colon = iri.indexOf(':')
    const prefix = colon > 0 ? definitions[iri.slice(0, colon)] : undefined
    return prefix && !iri.startsWith('//', colon + 1) ? prefix + iri.slice(colon + 1) : iri
  }
  const terms: Record<string, string> = {}
  for (const [term, iri] of Object.entries(definitions)) {
    const expanded = expand(iri)
    // Prefix definitions (ending in / or #) are not attribute names.
    if (!/[/#]$/.test(expanded)) terms[expanded] ??= term
  }
  return terms
}
