'use client'

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'

import { cityOfRead } from '@/layers/shared/city'
import { ALERT_PREVIEW_LIMIT, type LayerPreview, snapshotKey, statisticKey } from '@/layers/shared/preview'
import type { SortDirection } from '@/layers/shared/sorting'
import type { DashboardData, DashboardLayer, LayerMeta, LayerSnapshot } from '@/layers/shared/types'
import type { Feature } from '@/ngsi'

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
}

/** `feature`: the feature itself, for a layer drawn from tiles (the browser does not hold its features). */
type FocusRequest = { layerId: string; featureId: string; feature?: Feature; sequence: number }

type DashboardContextValue = {
  data: DashboardData
  city: string
  selectCity: (tenant: string) => void
  states: Record<string, LayerState>
  subscribe: (layerId: string, city: string) => void
  focus?: FocusRequest
  focusFeature: (layerId: string, featureId: string, feature?: Feature) => void
}

const DashboardContext = createContext<DashboardContextValue | null>(null)

export function useDashboard(): DashboardContextValue {
  const value = useContext(DashboardContext)
  if (!value) throw new Error('Dashboard blocks must be rendered inside <DashboardProvider>')
  return value
}

/** The city the page shows, when it has data blocks (and so a city switcher); else undefined. */
export const usePageCity = (): string | undefined => useContext(DashboardContext)?.city

export type BlockLayerState = LayerState & { layerId: string; city: string }

/** Live features of a block's layers: each layer's pinned city, else the block's, else the page's. */
export function useLayersData(layerIds: string[], blockCity?: string | null): BlockLayerState[] {
  const { data, city: pageCity, states, subscribe } = useDashboard()
  const wanted = layerIds.filter((id) => data.layers[id]).map((layerId) => ({ layerId, city: cityOfRead(data.layers[layerId].fixedCity, blockCity, pageCity) ?? '' }))
  const keys = wanted.map(({ layerId, city }) => snapshotKey(layerId, city)).join(',')
  useEffect(() => {
    for (const key of keys.split(',').filter(Boolean)) {
      const [layerId, city] = key.split('|')
      subscribe(layerId, city)
    }
  }, [keys, subscribe])
  return wanted.map(({ layerId, city }) => ({ ...(states[snapshotKey(layerId, city)] ?? { features: [], status: 'loading' }), layerId, city }))
}

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

async function readJson<T extends object>(url: string, signal?: AbortSignal, ...required: (keyof T)[]): Promise<T> {
  // no-cache: the browser revalidates with the ETag it holds; an unchanged layer is a 304.
  const response = await fetch(url, { cache: 'no-cache', signal })
  const body = (await response.json()) as Partial<T> & { error?: string }
  if (!response.ok || required.some((name) => !body[name])) throw new Error(body.error ?? `The server answered ${response.status}`)
  return body as T
}

const readFeatures = (url: string, signal?: AbortSignal) => readJson<{ features: Feature[]; meta: LayerMeta }>(url, signal, 'features', 'meta')

export type TableSort = { column: string; direction: SortDirection }

/** Rows of a tiled layer, a page at a time from the server (sorted there); a new function for each version of its data. */
export function usePageReader(state: BlockLayerState | undefined): ((offset: number, limit: number, sort?: TableSort) => Promise<Feature[]>) | undefined {
  const { data } = useDashboard()
  const { layerId = '', city = '', tiles } = state ?? {}
  const layer = data.layers[layerId]
  return useMemo(
    () =>
      tiles && layer
        ? async (offset: number, limit: number, sort?: TableSort) => {
            const search: Record<string, string> = { offset: String(offset), limit: String(limit) }
            // The first column shows the name, else the id: without a name attribute, it sorts by id.
            if (sort) Object.assign(search, { sort: sort.column === 'name' && !layer.attributes.includes('name') ? 'id' : sort.column, order: sort.direction })
            return (await readFeatures(layerUrl(layer, city, 'features', search))).features
          }
        : undefined,
    [tiles, layer, city],
  )
}

const fromSnapshot = (snapshot: LayerSnapshot): LayerState =>
  snapshot.status === 'preview'
    ? { features: [], meta: snapshot.meta, status: 'loading', preview: snapshot.preview }
    : { features: [], status: 'unavailable', message: snapshot.message }

/** Fetches each subscribed (layer, city) at once, then again every refreshSeconds, without reloading the page. */
function useLayerStore(data: DashboardData) {
  const [states, setStates] = useState<Record<string, LayerState>>(() =>
    Object.fromEntries(Object.entries(data.initial).map(([key, snapshot]) => [key, fromSnapshot(snapshot)])),
  )
  // The states as last rendered, for the refresh loops (which outlive a render).
  const latest = useRef(states)
  useEffect(() => {
    latest.current = states
  }, [states])
  const loops = useRef(new Map<string, ReturnType<typeof setTimeout> | undefined>())
  const controller = useRef<AbortController | null>(null)

  // Blocks subscribe from their own effects, which run before this one: the controller is made on first use.
  useEffect(() => {
    const running = loops.current
    return () => {
      controller.current?.abort()
      controller.current = null
      running.forEach((timer) => clearTimeout(timer))
      running.clear()
    }
  }, [])

  const subscribe = useCallback(
    (layerId: string, city: string) => {
      const key = snapshotKey(layerId, city)
      const layer = data.layers[layerId]
      if (!layer || loops.current.has(key)) return
      controller.current ??= new AbortController()
      const signal = controller.current.signal
      const tilesOf = (meta: LayerMeta) => {
        const query = new URLSearchParams({ v: meta.fetchedAt })
        if (city && !layer.fixedCity) query.set('city', city)
        return `${window.location.origin}/api/layers/${encodeURIComponent(layerId)}/tiles/{z}/{x}/{y}?${query}`
      }
      const request = data.previews[layerId] ?? { headSize: 0, statistics: [], alertLimit: ALERT_PREVIEW_LIMIT }
      const previewSearch = {
        head: String(request.headSize),
        statistics: request.statistics.map(({ statistic, attribute }) => statisticKey(statistic, attribute)).join(','),
      }
      const refresh = async () => {
        try {
          // A layer over the threshold is never fetched whole: the server's preview of its current
          // version (first rows, alerts, KPI figures) stands in for it, and says how large it is.
          // The size is known from the last answer or the page's preview, else asked first.
          const known = latest.current[key]
          const knownSize = known && hasWholeSet(known) ? known.features.length : known?.preview?.total
          const served =
            knownSize === undefined || knownSize > data.tileThreshold
              ? await readJson<{ meta: LayerMeta; preview: LayerPreview }>(layerUrl(layer, city, 'preview', previewSearch), signal, 'meta', 'preview')
              : undefined
          if (served && served.preview.total > data.tileThreshold) {
            const { meta, preview } = served
            setStates((all) => ({ ...all, [key]: { features: [], meta, status: 'ready', preview, tiles: tilesOf(meta) } }))
          } else {
            const { features, meta } = await readFeatures(layerUrl(layer, city, 'features'), signal)
            setStates((all) => ({ ...all, [key]: { features, meta, status: 'ready' } }))
          }
        } catch (error) {
          if (signal.aborted) return
          setStates((all) => {
            const previous = all[key]
            const message = (error as Error).message
            if (previous?.status === 'ready' && previous.meta) return { ...all, [key]: { ...previous, meta: { ...previous.meta, stale: true } } }
            if (previous?.preview && previous.meta) return { ...all, [key]: { ...previous, status: 'unavailable', message, meta: { ...previous.meta, stale: true } } }
            return { ...all, [key]: { features: [], status: 'unavailable', message } }
          })
        }
        if (!signal.aborted) loops.current.set(key, setTimeout(refresh, layer.refreshSeconds * 1000))
      }
      loops.current.set(key, undefined)
      void refresh()
    },
    [data],
  )

  return { states, subscribe }
}

export function DashboardProvider({ data, children }: { data: DashboardData; children: React.ReactNode }) {
  const [city, setCity] = useState(data.defaultCity)
  const [focus, setFocus] = useState<FocusRequest>()
  const { states, subscribe } = useLayerStore(data)

  // The city is part of the URL (?city=), so a link or the back button shows the same city.
  useEffect(() => {
    const fromUrl = () => {
      const wanted = new URLSearchParams(window.location.search).get('city')
      setCity(wanted && data.cities.some((known) => known.tenant === wanted) ? wanted : data.defaultCity)
    }
    fromUrl()
    window.addEventListener('popstate', fromUrl)
    return () => window.removeEventListener('popstate', fromUrl)
  }, [data])

  const selectCity = useCallback(
    (tenant: string) => {
      const url = new URL(window.location.href)
      if (tenant === data.defaultCity) url.searchParams.delete('city')
      else url.searchParams.set('city', tenant)
      window.history.pushState(null, '', url)
      setCity(tenant)
    },
    [data.defaultCity],
  )

  const focusFeature = useCallback((layerId: string, featureId: string, feature?: Feature) => {
    setFocus((previous) => ({ layerId, featureId, feature, sequence: (previous?.sequence ?? 0) + 1 }))
  }, [])

  const value = useMemo(
    () => ({ data, city, selectCity, states, subscribe, focus, focusFeature }),
    [data, city, selectCity, states, subscribe, focus, focusFeature],
  )
  return <DashboardContext.Provider value={value}>{children}</DashboardContext.Provider>
}
