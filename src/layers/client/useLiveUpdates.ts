'use client'

import { useEffect } from 'react'

import type { Feature } from '@/ngsi'

import type { LiveChange, LiveMode, LiveModeChange, LiveReady, LiveReset, LiveTilesChange } from '../shared/liveEvents'
import { snapshotKey } from '../shared/preview'
import { hasWholeSet, withChange } from './layerState'
import type { LayerStates } from './layerStates'

type Store = {
  states: LayerStates
  refetch: (key: string) => void
  forReader: (key: string, features: Feature[]) => Feature[]
}

/**
 * The live stream of one city's layers (GET /api/live): pushed changes go straight into the layer
 * states; when the stream is unavailable the layers are marked `polling` and their loops read again.
 */
function openStream(city: string, layerIds: string[], { states, refetch, forReader }: Store): EventSource {
  const keyOf = (layerId: string) => snapshotKey(layerId, city)
  const isPolling = (layerId: string) => states.current(keyOf(layerId))?.live?.mode !== 'live'
  /** What the server said of a layer; a lost stream (`kept`) keeps the last word on the broker. */
  const setMode = (layerId: string, { mode, brokerDownSince }: LiveMode, kept = false) =>
    states.change(keyOf(layerId), (state) => ({ ...state, live: { ...state.live, mode, brokerDownSince: kept ? state.live?.brokerDownSince : brokerDownSince } }))
  const query = new URLSearchParams({ layers: layerIds.join(',') })
  if (city) query.set('city', city)
  const source = new EventSource(`/api/live?${query}`)
  const on = <T>(name: string, handle: (data: T) => void) => source.addEventListener(name, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T))
  on<LiveReady>('ready', ({ layers }) => {
    for (const [layerId, mode] of Object.entries(layers)) {
      const wasPolling = isPolling(layerId)
      setMode(layerId, mode)
      // Changes may have come while nothing was pushed: fetch once, then rely on the stream.
      if (mode.mode === 'live' && wasPolling) refetch(keyOf(layerId))
    }
  })
  on<LiveChange>('change', (change) => {
    const key = keyOf(change.layer)
    const state = states.current(key)
    const readers = { ...change, upserted: forReader(key, change.upserted) }
    states.change(key, (previous) => withChange(previous, readers))
    // A layer not held whole (a preview, or drawn from tiles) fetches its new version.
    if (state && !hasWholeSet(state)) refetch(key)
  })
  on<LiveTilesChange>('tiles', ({ layer, at }) => {
    states.change(keyOf(layer), (previous) => ({ ...previous, live: { mode: 'live', lastChangeAt: at } }))
    refetch(keyOf(layer))
  })
  on<LiveModeChange>('mode', ({ layer, ...mode }) => {
    const wasPolling = isPolling(layer)
    setMode(layer, mode)
    // Polling starts now; back on live, what changed meanwhile (the broker was away) is fetched once.
    if (mode.mode === 'polling' || wasPolling) refetch(keyOf(layer))
  })
  on<LiveReset>('reset', ({ layers }) => layers.forEach((layer) => refetch(keyOf(layer))))
  // Lost (the browser retries by itself) or refused (429/503: it does not): poll meanwhile.
  source.addEventListener('error', () => layerIds.forEach((layerId) => setMode(layerId, { mode: 'polling' }, true)))
  return source
}

/** One EventSource per city the page shows (one in all but mixed-city pages) for all its layers. */
export function useLiveUpdates(keys: string[], { states, refetch, forReader }: Store) {
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
      return openStream(city, layerList.split(','), { states, refetch, forReader })
    })
    return () => sources.forEach((source) => source.close())
  }, [streams, states, refetch, forReader])
}
