'use client'
// The admin components' calls to the layer editor's discovery endpoints (same origin, session cookie).

export interface BrokerPreviewResult {
  type: string
  count: number | null
  attributes: string[]
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

export const fetchBrokerTypes = (tenant?: string) => getJson<{ types: string[] }>('types', { tenant })

export const fetchBrokerPreview = (type: string, tenant?: string, attrs: string[] = []) =>
  getJson<BrokerPreviewResult>('preview', { type, tenant, attrs: attrs.join(',') })
