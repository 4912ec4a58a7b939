'use client'

import type { StyleSpecification } from 'maplibre-gl'
import { useEffect, useMemo, useRef, useState } from 'react'

import { type Basemap, BASEMAP_TILES_TEMPLATE, BASEMAP_TIMEOUT_MS, offlineStyle } from '@/map/style'

import { isDataSource } from './sources'
import { probeableStyle, probedStyle, probeStyle } from './styleProbe'

/** Why the bundled basemap shows instead of the chosen one. */
type Fallback = 'timeout' | 'error'

/** Why the map shows the bundled basemap: it was chosen (`configured`), or the chosen one failed. */
export type BasemapFallback = Fallback | 'configured'

/**
 * The style to draw: the chosen basemap until it fails or has not drawn a tile within
 * BASEMAP_TIMEOUT_MS, then the bundled Natural Earth one (data layers are re-added by react-map-gl).
 */
export function useBasemap(basemap: Basemap) {
  const [remote, setRemote] = useState<string | StyleSpecification | undefined>(() => (basemap.kind === 'online' ? basemap.style : undefined))
  const probed = probeableStyle(basemap)
  // A style already known to be out of reach is never tried: the map starts on the bundled basemap.
  const [fallback, setFallback] = useState<BasemapFallback | undefined>(() =>
    basemap.kind === 'offline' ? 'configured' : probed && probedStyle(probed) === false ? 'error' : undefined,
  )
  const drawn = useRef(false)
  // Absolute: MapLibre fetches tiles in its workers, where a path would resolve against /vendor/.
  const offline = useMemo(() => offlineStyle(`${window.location.origin}${BASEMAP_TILES_TEMPLATE}`), [])
  const archive = basemap.kind === 'pmtiles' ? basemap.archive : undefined

  useEffect(() => {
    if (!archive) return
    import('@/map/protomaps')
      .then(({ protomapsStyle }) => protomapsStyle(archive))
      .then(setRemote)
      .catch(() => setFallback('error'))
  }, [archive])

  useEffect(() => {
    if (!probed) return
    let current = true
    void probeStyle(probed).then((reachable) => {
      if (current && !reachable && !drawn.current) setFallback((previous) => previous ?? 'error')
    })
    return () => {
      current = false
    }
  }, [probed])

  useEffect(() => {
    if (basemap.kind === 'offline') return
    const timer = setTimeout(() => {
      if (!drawn.current) setFallback((current) => current ?? 'timeout')
    }, BASEMAP_TIMEOUT_MS)
    return () => clearTimeout(timer)
  }, [basemap.kind])

  return {
    mapStyle: fallback ? offline : remote,
    fallback,
    basemapDrawn: () => {
      drawn.current = true
    },
    onBasemapError: (sourceId: string | undefined) => {
      if (!drawn.current && !isDataSource(sourceId)) setFallback((current) => current ?? 'error')
    },
  }
}
