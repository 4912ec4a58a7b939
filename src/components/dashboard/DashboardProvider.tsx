'use client'

import { useLocale } from 'next-intl'
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'

import { DEFAULT_LOCALE } from '@/i18n/locales'
import { cityOfRead } from '@/layers/shared/city'
import { alertInLanguage } from '@/layers/shared/alertTexts'
import { featuresInLanguage } from '@/layers/shared/languages'
import { applyChange, type LiveChange, type LiveModeChange, type LiveTilesChange } from '@/layers/shared/liveEvents'
import { createPresentation, DEFAULT_TIME_ZONE, type Presentation } from '@/layers/shared/presentation'
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
  /**
   * How the page learns of changes: `live` (the server pushes them, GET /api/live), else `polling`
   * every refreshSeconds; `lastChangeAt` is when the last pushed change came; `brokerDownSince`
   * while the server says the broker does not answer (what the page holds is stale).
   */
  live?: { mode: 'live' | 'polling'; lastChangeAt?: string; brokerDownSince?: string }
}

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

export type BlockLayerState = LayerState & { layerId: string; city: string }

/** The time zone of a city of the page (a tenant), else DEFAULT_TIME_ZONE. */
const timeZoneOf = (data: DashboardData, tenant: string | undefined) => data.cities.find((known) => known.tenant === tenant)?.timeZone ?? DEFAULT_TIME_ZONE

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

/**
 * A JSON answer, its ETag, and whether the server answered from a copy past its refresh period while
 * it reads the broker again (`X-Data-State: stale`): then the change is there a moment later.
 */
async function readJsonTagged<T extends object>(
  url: string,
  signal?: AbortSignal,
  ...required: (keyof T)[]
): Promise<{ body: T; etag: string | null; refreshing: boolean }> {
  // no-cache: the browser revalidates with the ETag it holds; an unchanged layer is a 304.
  const response = await fetch(url, { cache: 'no-cache', signal })
  const body = (await response.json()) as Partial<T> & { error?: string }
  if (!response.ok || required.some((name) => !body[name])) throw new Error(body.error ?? `The server answered ${response.status}`)
  return { body: body as T, etag: response.headers.get('etag'), refreshing: response.headers.get('x-data-state') === 'stale' }
}

/** How long after an answer from a copy past its period the layer is read again (the server's own read of the broker is done by then). */
const REREAD_AFTER_MS = 2_000

const readFeatures = (url: string, signal?: AbortSignal) => readJsonTagged<{ features: Feature[]; meta: LayerMeta }>(url, signal, 'features', 'meta')

/** How a layer's features read to this page's reader (see `readersFeatures`). */
type Reader = { locale: string; timeZone: string; layer: DashboardLayer; units?: Record<string, string> }

/**
 * Features as the reader reads them: entity texts the broker holds in several languages in the
 * reader's (else the site's default; src/layers/shared/languages.ts), and alert messages in the
 * reader's language when it is not the default (src/layers/shared/alertTexts.ts).
 */
function readersFeatures(features: Feature[], { locale, timeZone, layer, units }: Reader): Feature[] {
  const inLanguage = featuresInLanguage(features, locale, [DEFAULT_LOCALE])
  if (!layer.alertTexts?.length) return inLanguage
  const presentation = createPresentation({ attributes: layer.attributeDisplay, units, locale, timeZone })
  return inLanguage.map((feature) => alertInLanguage(feature, layer.alertTexts, presentation))
}
const readersPreview = (preview: LayerPreview, reader: Reader): LayerPreview => ({
  ...preview,
  head: readersFeatures(preview.head, reader),
  alerting: readersFeatures(preview.alerting, reader),
})

export type TableSort = { column: string; direction: SortDirection }

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
            return readersFeatures(features, { locale, timeZone: timeZoneOf(data, cityOfRead(layer.fixedCity, city)), layer, units: meta.units })
          }
        : undefined,
    [tiles, layer, city, locale, data],
  )
}

const fromSnapshot = (snapshot: LayerSnapshot, locale: string): LayerState =>
  snapshot.status === 'preview'
    ? {
        features: [],
        meta: snapshot.meta,
        status: 'loading',
        // The server wrote its alert messages in the reader's language already.
        preview: { ...snapshot.preview, head: featuresInLanguage(snapshot.preview.head, locale, [DEFAULT_LOCALE]), alerting: featuresInLanguage(snapshot.preview.alerting, locale, [DEFAULT_LOCALE]) },
      }
    : { features: [], status: 'unavailable', message: snapshot.message }

/** Fetches each subscribed (layer, city) at once, then again every refreshSeconds, without reloading the page. */
function useLayerStore(data: DashboardData) {
  const locale = useLocale()
  const [states, setStates] = useState<Record<string, LayerState>>(() =>
    Object.fromEntries(Object.entries(data.initial).map(([key, snapshot]) => [key, fromSnapshot(snapshot, locale)])),
  )
  // The states as last rendered, for the refresh loops (which outlive a render).
  const latest = useRef(states)
  useEffect(() => {
    latest.current = states
  }, [states])
  const loops = useRef(new Map<string, ReturnType<typeof setTimeout> | undefined>())
  const refreshers = useRef(new Map<string, (now?: boolean) => Promise<void>>())
  // The (layer, city) keys with a request on its way, and those asked for again meanwhile.
  const inFlight = useRef(new Set<string>())
  const askedAgain = useRef(new Set<string>())
  // The (layer, city) keys whose next read is the quick one after a copy past its period.
  const rereadSoon = useRef(new Set<string>())
  // The ETag of the features each (layer, city) shows, as fetched.
  const shownTags = useRef(new Map<string, string | null>())
  const controller = useRef<AbortController | null>(null)
  // The (layer, city) keys blocks asked for: the live stream covers them all.
  const [watched, setWatched] = useState<string[]>([])

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
      const reader: Reader = { locale, timeZone: timeZoneOf(data, cityOfRead(layer.fixedCity, city)), layer }
      const previewSearch = {
        head: String(request.headSize),
        statistics: request.statistics.map(({ statistic, attribute }) => statisticKey(statistic, attribute)).join(','),
      }
      const refresh = async (now = false): Promise<void> => {
        // A live layer gets its changes pushed: the timer only keeps polling ready for when it is not.
        if (!now && latest.current[key]?.live?.mode === 'live') {
          if (!signal.aborted) loops.current.set(key, setTimeout(() => void refresh(), layer.refreshSeconds * 1000))
          return
        }
        // One request at a time: asked again meanwhile (the stream's `ready` while the first load is on
        // its way), it asks once more after, when the browser holds the ETag and a 304 answers if
        // nothing changed, instead of downloading the layer twice at once.
        if (inFlight.current.has(key)) {
          askedAgain.current.add(key)
          return
        }
        inFlight.current.add(key)
        let refreshing = false
        try {
          // A layer over the threshold is never fetched whole: the server's preview of its current
          // version (first rows, alerts, KPI figures) stands in for it, and says how large it is.
          // The size is known from the last answer or the page's preview, else asked first.
          const known = latest.current[key]
          const knownSize = known && hasWholeSet(known) ? known.features.length : known?.preview?.total
          const served =
            knownSize === undefined || knownSize > data.tileThreshold
              ? await readJsonTagged<{ meta: LayerMeta; preview: LayerPreview }>(layerUrl(layer, city, 'preview', previewSearch), signal, 'meta', 'preview')
              : undefined
          if (served && served.body.preview.total > data.tileThreshold) {
            refreshing = served.refreshing
            const { meta } = served.body
            const preview = readersPreview(served.body.preview, { ...reader, units: meta.units })
            setStates((all) => ({ ...all, [key]: { features: [], meta, status: 'ready', preview, tiles: tilesOf(meta), live: all[key]?.live } }))
          } else {
            const { body, etag, refreshing: behind } = await readFeatures(layerUrl(layer, city, 'features'), signal)
            refreshing = behind
            const shown = latest.current[key]
            // The same version as shown (a 304 to the browser's revalidation): the state, and the map,
            // tables and open popup drawn from it, stay as they are.
            if (!(etag && etag === shownTags.current.get(key) && shown && hasWholeSet(shown) && !shown.meta?.stale)) {
              const features = readersFeatures(body.features, { ...reader, units: body.meta.units })
              shownTags.current.set(key, etag)
              setStates((all) => ({ ...all, [key]: { features, meta: body.meta, status: 'ready', live: all[key]?.live } }))
            }
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
        } finally {
          inFlight.current.delete(key)
        }
        if (signal.aborted) return
        if (askedAgain.current.delete(key)) return refresh(true)
        // Served a copy past its period, the change the server is reading now would wait one more
        // period: ask once more shortly (not again after that, so a slow broker is not asked in a loop).
        const soon = refreshing && !rereadSoon.current.has(key)
        if (soon) rereadSoon.current.add(key)
        else rereadSoon.current.delete(key)
        loops.current.set(key, setTimeout(() => void refresh(), soon ? REREAD_AFTER_MS : layer.refreshSeconds * 1000))
      }
      refreshers.current.set(key, refresh)
      loops.current.set(key, undefined)
      void refresh()
      setWatched((known) => (known.includes(key) ? known : [...known, key]))
    },
    [data, locale],
  )

  /** Fetches a layer again now (a reset, a tiled layer's new version, live updates gone). */
  const refetch = useCallback((key: string) => {
    clearTimeout(loops.current.get(key))
    void refreshers.current.get(key)?.(true)
  }, [])

  // Pushed features as the reader reads them (the layer's units: from its last answer).
  const forReader = useCallback(
    (key: string, features: Feature[]) => {
      const [layerId, city] = key.split('|') as [string, string]
      const layer = data.layers[layerId]
      if (!layer) return features
      return readersFeatures(features, { locale, timeZone: timeZoneOf(data, cityOfRead(layer.fixedCity, city)), layer, units: latest.current[key]?.meta?.units })
    },
    [data, locale],
  )
  useLiveUpdates(watched, setStates, latest, refetch, forReader)

  return { states, subscribe }
}

/** The layer state with a pushed change applied (src/layers/shared/liveEvents.ts): features replaced, added or removed, "data as of" moved on. */
function withChange(state: LayerState, change: LiveChange): LayerState {
  const live = { mode: 'live' as const, lastChangeAt: change.at }
  if (!hasWholeSet(state)) return { ...state, live }
  const features = applyChange(state.features, change)
  const meta = state.meta && { ...state.meta, count: features.length, fetchedAt: change.at, stale: false }
  return { ...state, features, meta, live }
}

/**
 * One EventSource per city the page shows (one in all but mixed-city pages) for all its layers:
 * pushed changes go straight into the layer states; when the stream is unavailable the layers are
 * marked `polling` and their refresh loops fetch again.
 */
function useLiveUpdates(
  keys: string[],
  setStates: React.Dispatch<React.SetStateAction<Record<string, LayerState>>>,
  latest: React.RefObject<Record<string, LayerState>>,
  refetch: (key: string) => void,
  forReader: (key: string, features: Feature[]) => Feature[],
) {
  const byCity = new Map<string, string[]>()
  for (const key of keys) {
    const [layerId, city] = key.split('|') as [string, string]
    byCity.set(city, [...(byCity.get(city) ?? []), layerId])
  }
  const streams = [...byCity].map(([city, layerIds]) => `${city}|${[...layerIds].sort().join(',')}`).join(';')

  useEffect(() => {
    if (!streams || typeof EventSource === 'undefined') return
    const sources = streams.split(';').map((stream) => {
      const [city, layerList] = stream.split('|') as [string, string]
      const layerIds = layerList.split(',')
      const keyOf = (layerId: string) => snapshotKey(layerId, city)
      type Mode = Omit<LiveModeChange, 'layer'>
      /** What the server said of a layer; a lost stream (`kept`) keeps the last word on the broker. */
      const setMode = (layerId: string, { mode, brokerDownSince }: Mode, kept = false) =>
        setStates((all) => {
          const state = all[keyOf(layerId)]
          if (!state) return all
          return { ...all, [keyOf(layerId)]: { ...state, live: { ...state.live, mode, brokerDownSince: kept ? state.live?.brokerDownSince : brokerDownSince } } }
        })
      const query = new URLSearchParams({ layers: layerIds.join(',') })
      if (city) query.set('city', city)
      const source = new EventSource(`/api/live?${query}`)
      const data = <T,>(event: Event) => JSON.parse((event as MessageEvent<string>).data) as T
      source.addEventListener('ready', (event) => {
        const { layers } = data<{ layers: Record<string, Mode> }>(event)
        for (const [layerId, mode] of Object.entries(layers)) {
          const wasPolling = latest.current[keyOf(layerId)]?.live?.mode !== 'live'
          setMode(layerId, mode)
          // Changes may have come while nothing was pushed: fetch once, then rely on the stream.
          if (mode.mode === 'live' && wasPolling) refetch(keyOf(layerId))
        }
      })
      source.addEventListener('change', (event) => {
        const change = data<LiveChange>(event)
        const key = keyOf(change.layer)
        const state = latest.current[key]
        const readers = { ...change, upserted: forReader(key, change.upserted) }
        setStates((all) => (all[key] ? { ...all, [key]: withChange(all[key]!, readers) } : all))
        // A layer not held whole (a preview, or drawn from tiles) fetches its new version.
        if (state && !hasWholeSet(state)) refetch(key)
      })
      source.addEventListener('tiles', (event) => {
        const { layer, at } = data<LiveTilesChange>(event)
        setStates((all) => (all[keyOf(layer)] ? { ...all, [keyOf(layer)]: { ...all[keyOf(layer)]!, live: { mode: 'live', lastChangeAt: at } } } : all))
        refetch(keyOf(layer))
      })
      source.addEventListener('mode', (event) => {
        const { layer, ...mode } = data<LiveModeChange>(event)
        const wasPolling = latest.current[keyOf(layer)]?.live?.mode !== 'live'
        setMode(layer, mode)
        // Polling starts now; back on live, what changed meanwhile (the broker was away) is fetched once.
        if (mode.mode === 'polling' || wasPolling) refetch(keyOf(layer))
      })
      source.addEventListener('reset', (event) => {
        for (const layer of data<{ layers: string[] }>(event).layers) refetch(keyOf(layer))
      })
      // Lost (the browser retries by itself) or refused (429/503: it does not): poll meanwhile.
      source.addEventListener('error', () => {
        for (const layerId of layerIds) setMode(layerId, { mode: 'polling' }, true)
      })
      return source
    })
    return () => sources.forEach((source) => source.close())
  }, [streams, setStates, latest, refetch, forReader])
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
