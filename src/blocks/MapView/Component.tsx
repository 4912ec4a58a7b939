'use client'

import { useTranslations } from 'next-intl'
import { type ComponentType, type RefObject, useEffect, useMemo, useRef, useState } from 'react'

import { DataStatus } from '@/components/dashboard/DataStatus'
import { FeatureTable } from '@/components/dashboard/FeatureTable'
import { useDashboard, useLayersData, usePageReader, usePresentation } from '@/layers/client/DashboardProvider'
import { availableFeatures, type BlockLayerState, totalOf } from '@/layers/client/layerState'
import { boxOfFeatures, cityArea, unionOf } from '@/layers/client/map/bounds'
import { ALERT_COLOURS } from '@/layers/client/map/colours'
import { preferMap, registerMap } from '@/layers/client/map/mapRegistry'
import { probeableStyle, probeStyle } from '@/layers/client/map/styleProbe'
import type { CanvasLayer, FoundPlace } from '@/layers/client/map/types'
import type { DashboardData } from '@/layers/shared/types'
import { loadMapLibre } from '@/map/loadMapLibre'
import { chooseBasemap } from '@/map/style'
import type { Feature } from '@/ngsi'
import type { MapViewBlock as MapViewBlockData } from '@/payload-types'

import { AddressSearch } from './AddressSearch'
import type { Props as MapCanvasProps } from './MapCanvas'
import { MarkerSymbol } from './MarkerSymbol'

// Not in the page's first load (next/dynamic would be: App Router preloads its chunks); the page
// prefetches its files and MapLibre's at idle priority instead (MapCodePrefetch), and both are
// asked for at once: one round of downloads.
const loadMapCode = () => Promise.all([import('./MapCanvas'), loadMapLibre()]).then(([module]) => module)

type MapCode = { status: 'waiting' } | { status: 'ready'; MapCanvas: ComponentType<MapCanvasProps> } | { status: 'failed' }

/**
 * The map's component, once it is wanted and its code is in: wanted when the map is near the
 * viewport, or else as soon as the page has loaded (its own scripts have run; waiting for an idle
 * moment on top had cost a slow phone up to half a second), and MapLibre has run and its worker
 * has read its script (src/map/loadMapLibre.ts). Rendered from the loaded module, not
 * through React.lazy: a Suspense boundary's content is revealed up to 300 ms late (React batches
 * reveals), and by then the code is in anyway.
 */
function useMapCode(frame: RefObject<HTMLElement | null>): { code: MapCode; retry: () => void } {
  const [code, setCode] = useState<MapCode>({ status: 'waiting' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let cancelled = false
    let wanted = false
    let loaded: MapCode | undefined
    const show = () => {
      if (cancelled || !wanted || !loaded) return
      observer.disconnect()
      setCode(loaded)
    }
    const want = () => {
      wanted = true
      show()
    }
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && want(), { rootMargin: '200px' })
    if (frame.current) observer.observe(frame.current)
    if (document.readyState === 'complete') want()
    else window.addEventListener('load', want, { once: true })
    // Its code is on its way already (prefetched): this only makes it count for the page.
    loadMapCode().then(
      (module) => {
        loaded = { status: 'ready', MapCanvas: module.default }
        show()
      },
      () => {
        loaded = { status: 'failed' }
        want()
      },
    )
    return () => {
      cancelled = true
      window.removeEventListener('load', want)
      observer.disconnect()
    }
  }, [frame, attempt])
  return {
    code,
    retry: () => {
      setCode({ status: 'waiting' })
      setAttempt((previous) => previous + 1)
    },
  }
}

const Placeholder = () => <div className="map-placeholder">{useTranslations('map')('loading')}</div>

const HEIGHTS = { small: 320, medium: 480, large: 640 } as const

/** What the map draws of each layer: its features or tiles, units, visibility and city. */
const canvasLayersOf = (layers: BlockLayerState[], data: DashboardData, hidden: Record<string, boolean>): CanvasLayer[] =>
  layers.map((state) => ({
    layer: data.layers[state.layerId],
    features: state.features,
    tiles: state.tiles,
    units: state.meta?.units ?? {},
    visible: !hidden[state.layerId],
    city: state.city,
  }))

/** The map's code could not be loaded: say so, and offer to try again. */
function MapCodeFailed({ retry }: { retry: () => void }) {
  const t = useTranslations('map')
  return (
    <div className="map-placeholder" role="status">
      <p>{t('loadFailed')}</p>
      <button type="button" className="button button--secondary" onClick={retry}>
        {t('tryAgain')}
      </button>
    </div>
  )
}

/** Each layer with its symbol, count and a switch to show or hide it; the alert levels' colours when a layer is coloured by alert. */
function MapLegend({ layers, hidden, onToggle }: { layers: BlockLayerState[]; hidden: Record<string, boolean>; onToggle: (layerId: string, shown: boolean) => void }) {
  const t = useTranslations('map')
  const { data } = useDashboard()
  const alertShape = layers.map((state) => data.layers[state.layerId]).find((layer) => layer?.colourBy === 'alert')?.icon ?? 'circle'
  return (
    <fieldset className="map-legend">
      <legend>{t('layers')}</legend>
      {layers.map((state) => {
        const layer = data.layers[state.layerId]
        return (
          <label key={state.layerId} className="legend-item">
            <input
              type="checkbox"
              checked={!hidden[state.layerId]}
              onChange={(event) => onToggle(state.layerId, event.target.checked)}
            />
            <MarkerSymbol shape={layer.icon} colour={layer.colour} />
            {layer.name} <span className="muted">({totalOf(state)})</span>
          </label>
        )
      })}
      {layers.some((state) => data.layers[state.layerId].colourBy === 'alert') && (
        <p className="legend-alerts">
          {(Object.keys(ALERT_COLOURS) as (keyof typeof ALERT_COLOURS)[]).map((level) => (
            <span key={level} className="legend-item">
              <MarkerSymbol shape={alertShape} colour={ALERT_COLOURS[level]} alert={level} />
              {t(`alertLevel.${level}`)}
            </span>
          ))}
        </p>
      )}
    </fieldset>
  )
}

/** The places on the map as tables, shown on request, whose rows open their popup on this map. */
function MapPlaces({ regionId, layers }: { regionId: string; layers: BlockLayerState[] }) {
  const t = useTranslations('map')
  const { focusFeature } = useDashboard()
  const [tableShown, setTableShown] = useState(false)
  return (
    <>
      {/* The places on the map, for the keyboard and screen readers too: a table shown on request (never hidden tab stops), whose row buttons open the popup on the map. */}
      <button
        type="button"
        className="button button--secondary map-table-toggle"
        aria-expanded={tableShown}
        aria-controls={`${regionId}-table`}
        onClick={() => setTableShown(!tableShown)}
      >
        {tableShown ? t('hideTable') : t('showTable')}
      </button>
      <div id={`${regionId}-table`} className="map-table" hidden={!tableShown}>
        {tableShown &&
          layers.map((state) => (
            <LayerTable
              key={state.layerId}
              state={state}
              onShow={(feature) => {
                // This map answers (not the first one showing the layer); it scrolls itself into view and focuses the popup.
                preferMap(regionId)
                focusFeature(state.layerId, String(feature.id), feature)
              }}
            />
          ))}
      </div>
    </>
  )
}

export function MapViewBlock(block: MapViewBlockData) {
  const t = useTranslations('map')
  const { data, city: pageCity } = useDashboard()
  const layerIds = block.layers.map((layer) => String(typeof layer === 'object' ? layer.id : layer))
  const layers = useLayersData(layerIds, block.city)
  const [hidden, setHidden] = useState<Record<string, boolean>>({})
  // Busy until the map has drawn the layers' data: assistive technology (and benchmarks) can wait for it.
  const loading = layers.some((state) => state.status === 'loading')
  const [drawn, setDrawn] = useState(false)
  const cityName = block.city || pageCity
  const city = data.cities.find((known) => known.tenant === cityName) ?? data.cities[0]
  // The block's own centre, else its city's.
  const center = { latitude: block.latitude ?? city?.latitude ?? 0, longitude: block.longitude ?? city?.longitude ?? 0, zoom: block.zoom ?? city?.zoom ?? 2 }
  const regionId = `map-${block.id ?? layerIds.join('-')}`
  const frame = useRef<HTMLDivElement>(null)
  const { code: mapCode, retry: retryMapCode } = useMapCode(frame)
  const basemap = chooseBasemap(data.mapStyle, data.mapToken, city?.basemap)
  const onlineStyle = probeableStyle(basemap)
  // Asked for while MapLibre's code downloads (src/blocks/MapView/styleProbe.ts).
  useEffect(() => {
    if (onlineStyle) void probeStyle(onlineStyle)
  }, [onlineStyle])
  const [place, setPlace] = useState<FoundPlace>()
  // On a phone the popup opens here, below the map, as a sheet.
  const [sheetSlot, setSheetSlot] = useState<HTMLDivElement | null>(null)
  const height = HEIGHTS[block.height ?? 'medium']
  // The page's other blocks (alerts, tables) offer "Show on map" only for the layers a map shows.
  const shownLayers = layerIds.filter((id) => data.layers[id]).join(',')
  useEffect(() => registerMap(regionId, shownLayers.split(',').filter(Boolean), () => frame.current), [regionId, shownLayers])
  // The address search stays in the city: its area around the centre, grown to hold the data shown.
  const dataBox = useMemo(() => unionOf(layers.map((state) => boxOfFeatures(state.features))), [layers])
  const area = cityArea(center, dataBox)

  return (
    <section className="block map-view" aria-labelledby={`${regionId}-title`}>
      <h2 id={`${regionId}-title`}>{block.title}</h2>
      {layers.map((state) => (
        <DataStatus key={state.layerId} state={state} label={layers.length > 1 ? data.layers[state.layerId].name : undefined} />
      ))}
      {data.addressSearch && (
        <AddressSearch
          area={area}
          onPick={({ label, lat, lon, bounds }) => setPlace((previous) => ({ label, lat, lon, bounds, sequence: (previous?.sequence ?? 0) + 1 }))}
        />
      )}
      <div
        ref={frame}
        className="map-frame"
        id={regionId}
        // A popup is never taller than the map (it scrolls inside).
        style={{ height, ['--map-popup-max-height' as string]: `${height - 40}px` }}
        aria-busy={loading || !drawn}
      >
        {mapCode.status === 'ready' ? (
          <mapCode.MapCanvas
            mapId={regionId}
            sheetSlot={sheetSlot}
            // Another city's own basemap is another map: start its basemap (and fallback timer) afresh.
            key={JSON.stringify(basemap)}
            label={t('mapLabel', { title: block.title })}
            center={center}
            basemap={basemap}
            token={data.mapToken}
            place={place}
            layers={canvasLayersOf(layers, data, hidden)}
            onDrawn={() => setDrawn(!loading)}
          />
        ) : mapCode.status === 'failed' ? (
          <MapCodeFailed retry={retryMapCode} />
        ) : (
          <Placeholder />
        )}
      </div>
      <div ref={setSheetSlot} className="map-sheet-slot" />
      {block.legend !== false && <MapLegend layers={layers} hidden={hidden} onToggle={(layerId, shown) => setHidden((all) => ({ ...all, [layerId]: !shown }))} />}
      <MapPlaces regionId={regionId} layers={layers} />
    </section>
  )
}

/** One layer's features as a table: paged through the server when the layer is drawn from tiles. */
function LayerTable({ state, onShow }: { state: BlockLayerState; onShow: (feature: Feature) => void }) {
  const t = useTranslations('map')
  const { data } = useDashboard()
  const layer = data.layers[state.layerId]
  return (
    <FeatureTable
      caption={t('tableCaption', { layer: layer.name, count: totalOf(state) })}
      features={availableFeatures(state, 'head')}
      total={totalOf(state)}
      columns={layer.popupAttributes}
      presentation={usePresentation(state.layerId, { city: state.city, units: state.meta?.units })}
      pageSize={20}
      history={{ layerId: state.layerId, city: state.city }}
      onShow={onShow}
      readPage={usePageReader(state)}
    />
  )
}
