import type * as MapLibre from 'maplibre-gl'

import { MAPLIBRE_URL, MAPLIBRE_WORKER_PATH, MAPLIBRE_WORKER_URL } from './maplibreFiles'

export type MapLibreModule = typeof MapLibre

/** Longest wait for the worker's script before a map is made anyway (a browser may not report it). */
const WORKER_SCRIPT_WAIT_MS = 1_000

/**
 * Resolves once the worker started at `startedAt` has read its script (from the cache the page
 * prefetched it into), or after WORKER_SCRIPT_WAIT_MS. Chrome starts a worker through tasks of the
 * page's main thread: a map made at once kept that thread busy and the worker's start waited for
 * it, where the map has to wait for the worker anyway (its basemap tiles and data are read there).
 */
function workerScriptRead(startedAt: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof PerformanceObserver === 'undefined') return resolve()
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntries().some((entry) => entry.name.includes(MAPLIBRE_WORKER_PATH) && entry.startTime >= startedAt)) return
      observer.disconnect()
      resolve()
    })
    observer.observe({ type: 'resource', buffered: true })
    setTimeout(() => {
      observer.disconnect()
      resolve()
    }, WORKER_SCRIPT_WAIT_MS)
  })
}

let loaded: MapLibreModule | undefined
let loading: Promise<MapLibreModule> | undefined
let failures = 0

/**
 * MapLibre, loaded by the browser as a module of its own (src/app/vendor/), not as a webpack chunk;
 * its worker started as soon as it has run, and its script read, so a map can be made at once.
 * A failed load is tried again from another URL: the browser keeps a module that failed as failed.
 */
export function loadMapLibre(): Promise<MapLibreModule> {
  loading ??= (import(/* webpackIgnore: true */ failures ? `${MAPLIBRE_URL}&retry=${failures}` : MAPLIBRE_URL) as Promise<MapLibreModule>).then(
    async (maplibre) => {
      maplibre.setWorkerUrl(MAPLIBRE_WORKER_URL)
      const startedAt = performance.now()
      maplibre.prewarm()
      await workerScriptRead(startedAt)
      return (loaded = maplibre)
    },
    (error: unknown) => {
      failures++
      loading = undefined
      throw error
    },
  )
  return loading
}

/** MapLibre once loadMapLibre has resolved: maps are made only then. */
export function loadedMapLibre(): MapLibreModule {
  if (!loaded) throw new Error('MapLibre is used before loadMapLibre resolved')
  return loaded
}
