'use client'

import { useLocale } from 'next-intl'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'

import type { Feature } from '@/ngsi'

import { snapshotKey } from '../shared/preview'
import type { DashboardData } from '../shared/types'
import { LayerLoops } from './layerLoops'
import { fromSnapshot, readerOf, readersFeatures } from './layerReads'
import { LayerStates } from './layerStates'
import { useLiveUpdates } from './useLiveUpdates'

/** The page's layer states: each (layer, city) a block asks for is read at once, then kept current (polled, or pushed by the live stream). */
export function useLayerStore(data: DashboardData) {
  const locale = useLocale()
  const [store] = useState(() => new LayerStates(Object.fromEntries(Object.entries(data.initial).map(([key, snapshot]) => [key, fromSnapshot(snapshot, locale)]))))
  const states = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot)
  const [loops] = useState(() => new LayerLoops(store))
  // Blocks subscribe from their own effects, which run before this one.
  useEffect(() => () => loops.stop(), [loops])
  // The (layer, city) keys blocks asked for: the live stream covers them all.
  const [watched, setWatched] = useState<string[]>([])

  const subscribe = useCallback(
    (layerId: string, city: string) => {
      const key = snapshotKey(layerId, city)
      const layer = data.layers[layerId]
      if (!layer || loops.has(key)) return
      loops.start({ key, data, layer, city, reader: readerOf(data, layer, city, locale) })
      setWatched((known) => (known.includes(key) ? known : [...known, key]))
    },
    [data, locale, loops],
  )
  const refetch = useCallback((key: string) => loops.refetch(key), [loops])

  // Pushed features as the reader reads them (the layer's units: from its last answer).
  const forReader = useCallback(
    (key: string, features: Feature[]) => {
      const [layerId, city] = key.split('|') as [string, string]
      const layer = data.layers[layerId]
      if (!layer) return features
      return readersFeatures(features, readerOf(data, layer, city, locale, store.current(key)?.meta?.units))
    },
    [data, locale, store],
  )
  useLiveUpdates(watched, { states: store, refetch, forReader })

  return { states, subscribe }
}
