// What the page holds of each (layer, city), and the rules read from it: browser state, no React.
import type { Feature } from '@/ngsi'

import { applyChange, type LiveChange } from '../shared/liveEvents'
import type { LayerPreview } from '../shared/preview'
import type { DashboardLayer, LayerMeta } from '../shared/types'

export type LayerState = {
  /** The layer's whole set once `ready`; empty before. */
  features: Feature[]
  meta?: LayerMeta
  /**
   * `loading`: the whole set is on its way (the server's preview, if any, shows meanwhile);
   * `unavailable`: it could not be loaded (a preview stays, marked stale). A failed refresh keeps
   * the data, marked stale.
   */
  status: 'loading' | 'ready' | 'unavailable'
  message?: string
  /** What the prerendered page carried: the first table page, the alerts, the KPI numbers. */
  preview?: LayerPreview
  /**
   * A layer above the tile threshold: the map draws these vector tiles (a URL template, new for
   * each version of the data), tables page through the server; `features` stays empty.
   */
  tiles?: string
  /**
   * How the page learns of changes: `live` (the server pushes them, GET /api/live), else `polling`
   * every refreshSeconds; `lastChangeAt` is when the last pushed change came; `brokerDownSince`
   * while the server says the broker does not answer (what the page holds is stale).
   */
  live?: { mode: 'live' | 'polling'; lastChangeAt?: string; brokerDownSince?: string }
}

export type BlockLayerState = LayerState & { layerId: string; city: string }

/** The browser holds every feature of the layer (not a preview, not tiles). */
export const hasWholeSet = (state: LayerState) => state.status === 'ready' && !state.tiles

/** The features a block can show now: the whole set once loaded, else the server's preview of them. */
export const availableFeatures = (state: LayerState, part: 'head' | 'alerting'): Feature[] =>
  hasWholeSet(state) ? state.features : (state.preview?.[part] ?? [])

/** How many features the layer has: the whole set's size once loaded, else the server's count. */
export const totalOf = (state: LayerState): number =>
  hasWholeSet(state) ? state.features.length : (state.meta?.total ?? state.preview?.total ?? 0)

/** A layer's data on the server: its features (whole, a page, a file) or `preview`, for the city asked for unless the layer is pinned. */
export const layerUrl = (layer: DashboardLayer, city: string, part: 'features' | 'preview', search: Record<string, string> = {}) => {
  const query = new URLSearchParams(search)
  if (city && !layer.fixedCity) query.set('city', city)
  return `/api/layers/${encodeURIComponent(layer.id)}/${part}${query.size ? `?${query}` : ''}`
}

/** The vector tile URL template of a tiled layer's version `meta.fetchedAt`. */
export const tilesUrl = (layer: DashboardLayer, city: string, meta: LayerMeta) => {
  const query = new URLSearchParams({ v: meta.fetchedAt })
  if (city && !layer.fixedCity) query.set('city', city)
  return `${window.location.origin}/api/layers/${encodeURIComponent(layer.id)}/tiles/{z}/{x}/{y}?${query}`
}

/** The layer state with a pushed change applied (src/layers/shared/liveEvents.ts): features replaced, added or removed, "data as of" moved on. */
export function withChange(state: LayerState, change: LiveChange): LayerState {
  const live = { mode: 'live' as const, lastChangeAt: change.at }
  if (!hasWholeSet(state)) return { ...state, live }
  const features = applyChange(state.features, change)
  const meta = state.meta && { ...state.meta, count: features.length, fetchedAt: change.at, stale: false }
  return { ...state, features, meta, live }
}

/** After a failed read: what was shown stays, marked stale; with nothing shown, the layer is unavailable. */
export function afterFailedRead(previous: LayerState | undefined, message: string): LayerState {
  if (previous?.status === 'ready' && previous.meta) return { ...previous, meta: { ...previous.meta, stale: true } }
  if (previous?.preview && previous.meta) return { ...previous, status: 'unavailable', message, meta: { ...previous.meta, stale: true } }
  return { features: [], status: 'unavailable', message }
}
