'use client'

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'

import { type LayerPreview, snapshotKey } from '@/layers/summary'
import type { DashboardData, LayerMeta, LayerSnapshot } from '@/layers/types'
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
}

type FocusRequest = { layerId: string; featureId: string; sequence: number }

type DashboardContextValue = {
  data: DashboardData
  city: string
  selectCity: (tenant: string) => void
  states: Record<string, LayerState>
  subscribe: (layerId: string, city: string) => void
  focus?: FocusRequest
  focusFeature: (layerId: string, featureId: string) => void
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
  const wanted = layerIds.filter((id) => data.layers[id]).map((layerId) => ({ layerId, city: data.layers[layerId].fixedCity || blockCity || pageCity }))
  const keys = wanted.map(({ layerId, city }) => snapshotKey(layerId, city)).join(',')
  useEffect(() => {
    for (const key of keys.split(',').filter(Boolean)) {
      const [layerId, city] = key.split('|')
      subscribe(layerId, city)
    }
  }, [keys, subscribe])
  return wanted.map(({ layerId, city }) => ({ ...(states[snapshotKey(layerId, city)] ?? { features: [], status: 'loading' }), layerId, city }))
}

/** The features a block can show now: the whole set once loaded, else the server's preview of them. */
export const availableFeatures = (state: LayerState, part: 'head' | 'alerting'): Feature[] =>
  state.status === 'ready' ? state.features : (state.preview?.[part] ?? [])

/** How many features the layer has: the whole set's size once loaded, else the server's count. */
export const totalOf = (state: LayerState): number => (state.status === 'ready' ? state.features.length : (state.preview?.total ?? 0))

const fromSnapshot = (snapshot: LayerSnapshot): LayerState =>
  snapshot.status === 'preview'
    ? { features: [], meta: snapshot.meta, status: 'loading', preview: snapshot.preview }
    : { features: [], status: 'unavailable', message: snapshot.message }

/** Fetches each subscribed (layer, city) at once, then again every refreshSeconds, without reloading the page. */
function useLayerStore(data: DashboardData) {
  const [states, setStates] = useState<Record<string, LayerState>>(() =>
    Object.fromEntries(Object.entries(data.initial).map(([key, snapshot]) => [key, fromSnapshot(snapshot)])),
  )
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
      const refresh = async () => {
        const query = city && !layer.fixedCity ? `?city=${encodeURIComponent(city)}` : ''
        try {
          // no-cache: the browser revalidates with the ETag it holds; an unchanged layer is a 304.
          const response = await fetch(`/api/layers/${encodeURIComponent(layerId)}/features${query}`, { cache: 'no-cache', signal })
          const body = (await response.json()) as { features?: Feature[]; meta?: LayerMeta; error?: string }
          if (!response.ok || !body.features) throw new Error(body.error ?? `The server answered ${response.status}`)
          setStates((all) => ({ ...all, [key]: { features: body.features!, meta: body.meta, status: 'ready' } }))
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

  const focusFeature = useCallback((layerId: string, featureId: string) => {
    setFocus((previous) => ({ layerId, featureId, sequence: (previous?.sequence ?? 0) + 1 }))
  }, [])

  const value = useMemo(
    () => ({ data, city, selectCity, states, subscribe, focus, focusFeature }),
    [data, city, selectCity, states, subscribe, focus, focusFeature],
  )
  return <DashboardContext.Provider value={value}>{children}</DashboardContext.Provider>
}
