'use client'
// The admin components' calls to the layer editor's discovery endpoints (same origin, session cookie).

export interface AttributeDetail {
  name: string
  /** The value of one sample entity, shortened; null when the sample has none. */
  sample: string | null
  unit: string | null
  numeric: boolean
}

export interface BrokerPreviewResult {
  type: string
  count: number | null
  attributes: string[]
  attributeDetails: AttributeDetail[]
  unknownAttributes: string[]
  sample: Record<string, unknown> | null
}

async function getJson<T>(path: string, params: Record<string, string | undefined>): Promise<T> {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])))
  const response = await fetch(`/api/map-layers/broker/${path}?${query}`, { credentials: 'include' })
  const body = (await response.json().catch(() => ({}))) as T & { error?: string }
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`)
  return body
}

// Several fields of one form ask for the same type at once (attributes, each filter row): one request.
const recent = new Map<string, { at: number; answer: Promise<unknown> }>()
function shared<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const hit = recent.get(key)
  if (hit && Date.now() - hit.at < 30_000) return hit.answer as Promise<T>
  const answer = ask()
  recent.set(key, { at: Date.now(), answer })
  answer.catch(() => recent.delete(key))
  return answer
}

export const fetchBrokerTypes = (tenant?: string) => shared(`types|${tenant ?? ''}`, () => getJson<{ types: string[] }>('types', { tenant }))

export const fetchBrokerPreview = (type: string, tenant?: string, attrs: string[] = []) =>
  getJson<BrokerPreviewResult>('preview', { type, tenant, attrs: attrs.join(',') })

/** The type's attributes with a sample value and unit each (shared by the fields that offer them). */
export const fetchAttributeDetails = (type: string, tenant?: string) =>
  shared(`preview|${type}|${tenant ?? ''}`, () => fetchBrokerPreview(type, tenant)).then((preview) => preview.attributeDetails)
