'use client'

import { useLocale } from 'next-intl'
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react'

import type { Feature } from '@/ngsi'

import { cityOfRead } from '../shared/city'
import { createPresentation, DEFAULT_TIME_ZONE, type Presentation } from '../shared/presentation'
import { snapshotKey } from '../shared/preview'
import type { DashboardData } from '../shared/types'
import { readerOf, readersFeatures, readFeatures, type TableSort, timeZoneOf } from './layerReads'
import { type BlockLayerState, type LayerState, layerUrl } from './layerState'
import { useLayerStore } from './useLayerStore'

/** `feature`: the feature itself, for a layer drawn from tiles (the browser does not hold its features). */
type FocusRequest = { layerId: string; featureId: string; feature?: Feature; sequence: number }

type DashboardContextValue = {
  data: DashboardData
  city: string
  /** The `?city=` the reader's URL names when the site has no such city (the page then shows its own). */
  unknownCity?: string
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

/**
 * The reader's language (the URL's locale) and the time zone of `city` (else the page's city), also
 * outside a dashboard (a page with charts only): DEFAULT_TIME_ZONE there.
 */
export function useReaderSettings(city?: string | null): { locale: string; timeZone: string } {
  const context = useContext(DashboardContext)
  const locale = useLocale()
  if (!context) return { locale, timeZone: DEFAULT_TIME_ZONE }
  return { locale, timeZone: timeZoneOf(context.data, city || context.city) }
}

/**
 * How a layer's attributes read on this page: its labels, units and formats, numbers in the page's
 * locale, times in the time zone of the city read (the layer's pinned city, else `city`, else the
 * page's). `units`: the broker's unit symbols (LayerMeta.units) where the layer sets none.
 */
export function usePresentation(layerId: string | undefined, { city, units }: { city?: string | null; units?: Record<string, string> } = {}): Presentation {
  const { data, city: pageCity } = useDashboard()
  const locale = useLocale()
  const layer = layerId ? data.layers[layerId] : undefined
  const tenant = cityOfRead(layer?.fixedCity, city, pageCity)
  const timeZone = timeZoneOf(data, tenant)
  const display = layer?.attributeDisplay
  return useMemo(() => createPresentation({ attributes: display, units, locale, timeZone }), [display, units, locale, timeZone])
}

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

/** Rows of a tiled layer, a page at a time from the server (sorted there); a new function for each version of its data. */
export function usePageReader(state: BlockLayerState | undefined): ((offset: number, limit: number, sort?: TableSort) => Promise<Feature[]>) | undefined {
  const { data } = useDashboard()
  const locale = useLocale()
  const { layerId = '', city = '', tiles } = state ?? {}
  const layer = data.layers[layerId]
  return useMemo(
    () =>
      tiles && layer
        ? async (offset: number, limit: number, sort?: TableSort) => {
            const search: Record<string, string> = { offset: String(offset), limit: String(limit) }
            // The first column shows the name, else the id: without a name attribute, it sorts by id.
            if (sort) Object.assign(search, { sort: sort.column === 'name' && !layer.attributes.includes('name') ? 'id' : sort.column, order: sort.direction })
            const { features, meta } = (await readFeatures(layerUrl(layer, city, 'features', search))).body
            return readersFeatures(features, readerOf(data, layer, city, locale, meta.units))
          }
        : undefined,
    [tiles, layer, city, locale, data],
  )
}

export function DashboardProvider({ data, children }: { data: DashboardData; children: React.ReactNode }) {
  const [city, setCity] = useState(data.defaultCity)
  const [unknownCity, setUnknownCity] = useState<string>()
  const [focus, setFocus] = useState<FocusRequest>()
  const { states, subscribe } = useLayerStore(data)

  // The city is part of the URL (?city=), so a link or the back button shows the same city.
  useEffect(() => {
    const fromUrl = () => {
      const wanted = new URLSearchParams(window.location.search).get('city')
      const known = wanted !== null && data.cities.some((candidate) => candidate.tenant === wanted)
      setCity(known ? wanted : data.defaultCity)
      setUnknownCity(wanted !== null && !known ? wanted : undefined)
    }
    fromUrl()
    window.addEventListener('popstate', fromUrl)
    return () => window.removeEventListener('popstate', fromUrl)
  }, [data])

  const selectCity = useCallback(
    (tenant: string) => {
      // Kept in the URL even for the page's own city: links carry it to pages whose own city differs.
      const url = new URL(window.location.href)
      url.searchParams.set('city', tenant)
      window.history.pushState(null, '', url)
      setCity(tenant)
      setUnknownCity(undefined)
    },
    [],
  )

  const focusFeature = useCallback((layerId: string, featureId: string, feature?: Feature) => {
    setFocus((previous) => ({ layerId, featureId, feature, sequence: (previous?.sequence ?? 0) + 1 }))
  }, [])

  const value = useMemo(
    () => ({ data, city, unknownCity, selectCity, states, subscribe, focus, focusFeature }),
    [data, city, unknownCity, selectCity, states, subscribe, focus, focusFeature],
  )
  return <DashboardContext.Provider value={value}>{children}</DashboardContext.Provider>
}
