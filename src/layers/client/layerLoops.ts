// The refresh loops of a page's layers, one per (layer, city): outside React, since they outlive
// a render. Each reads its layer at once, then every refreshSeconds (a live layer's loop only
// keeps ready for when pushes stop), one request at a time.
import { ALERT_PREVIEW_LIMIT, statisticKey } from '../shared/preview'
import type { DashboardData, DashboardLayer } from '../shared/types'
import { readersFeatures, readersPreview, readFeatures, readPreview, type Reader } from './layerReads'
import { afterFailedRead, hasWholeSet, type LayerState, layerUrl, tilesUrl } from './layerState'
import type { LayerStates } from './layerStates'

/** How long after an answer from a copy past its period the layer is read again (the server's own read of the broker is done by then). */
const REREAD_AFTER_MS = 2_000

export type LoopTarget = { key: string; data: DashboardData; layer: DashboardLayer; city: string; reader: Reader }

/**
 * One read of a (layer, city): its new state (none: the version shown is current), the features'
 * ETag, and whether the server answered from a copy past its period. A layer over the threshold
 * is never fetched whole: the server's preview of its current version (first rows, alerts, KPI
 * figures) stands in for it and says how large it is; the size is known from the last answer or
 * the page's preview, else asked first.
 */
async function readLayer({ data, layer, city, reader }: LoopTarget, shown: () => LayerState | undefined, shownTag: string | null | undefined, signal: AbortSignal) {
  const request = data.previews[layer.id] ?? { headSize: 0, statistics: [], alertLimit: ALERT_PREVIEW_LIMIT }
  const previewSearch = { head: String(request.headSize), statistics: request.statistics.map(({ statistic, attribute }) => statisticKey(statistic, attribute)).join(',') }
  const known = shown()
  const knownSize = known && hasWholeSet(known) ? known.features.length : known?.preview?.total
  const served = knownSize === undefined || knownSize > data.tileThreshold ? await readPreview(layerUrl(layer, city, 'preview', previewSearch), signal) : undefined
  if (served && served.body.preview.total > data.tileThreshold) {
    const { meta } = served.body
    const state: LayerState = { features: [], meta, status: 'ready', preview: readersPreview(served.body.preview, { ...reader, units: meta.units }), tiles: tilesUrl(layer, city, meta) }
    return { state, refreshing: served.refreshing }
  }
  const { body, etag, refreshing } = await readFeatures(layerUrl(layer, city, 'features'), signal)
  const now = shown()
  // The same version as shown (a 304 to the browser's revalidation): the state, and the map,
  // tables and open popup drawn from it, stay as they are.
  if (etag && etag === shownTag && now && hasWholeSet(now) && !now.meta?.stale) return { refreshing }
  const state: LayerState = { features: readersFeatures(body.features, { ...reader, units: body.meta.units }), meta: body.meta, status: 'ready' }
  return { state, etag, refreshing }
}

export class LayerLoops {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout> | undefined>()
  private readonly refreshers = new Map<string, (now?: boolean) => Promise<void>>()
  // The keys with a request on its way, those asked for again meanwhile, and those whose next read is the quick one.
  private readonly inFlight = new Set<string>()
  private readonly askedAgain = new Set<string>()
  private readonly rereadSoon = new Set<string>()
  // The ETag of the features each key shows, as fetched.
  private readonly shownTags = new Map<string, string | null>()
  private controller = new AbortController()

  constructor(private readonly states: LayerStates) {}

  has = (key: string) => this.timers.has(key)

  /** Starts the loop of `target.key` (once: a second start of a running loop does nothing). */
  start(target: LoopTarget) {
    const { key, layer } = target
    if (this.timers.has(key)) return
    if (this.controller.signal.aborted) this.controller = new AbortController()
    const signal = this.controller.signal
    const schedule = (ms: number) => {
      if (!signal.aborted) this.timers.set(key, setTimeout(() => void refresh(), ms))
    }
    const refresh = async (now = false): Promise<void> => {
      if (!now && this.states.current(key)?.live?.mode === 'live') return schedule(layer.refreshSeconds * 1000)
      // Asked again meanwhile (the stream's `ready` while the first load is on its way), it asks once
      // more after, when the browser holds the ETag and a 304 answers if nothing changed.
      if (this.inFlight.has(key)) return void this.askedAgain.add(key)
      this.inFlight.add(key)
      let refreshing = false
      try {
        const read = await readLayer(target, () => this.states.current(key), this.shownTags.get(key), signal)
        refreshing = read.refreshing
        if (read.state) {
          if (read.etag !== undefined) this.shownTags.set(key, read.etag)
          this.states.update(key, (previous) => ({ ...read.state!, live: previous?.live }))
        }
      } catch (error) {
        if (signal.aborted) return
        this.states.update(key, (previous) => afterFailedRead(previous, (error as Error).message))
      } finally {
        this.inFlight.delete(key)
      }
      if (signal.aborted) return
      if (this.askedAgain.delete(key)) return refresh(true)
      // Served a copy past its period, the change the server is reading now would wait one more
      // period: ask once more shortly (not again after that, so a slow broker is not asked in a loop).
      const soon = refreshing && !this.rereadSoon.has(key)
      if (soon) this.rereadSoon.add(key)
      else this.rereadSoon.delete(key)
      schedule(soon ? REREAD_AFTER_MS : layer.refreshSeconds * 1000)
    }
    this.refreshers.set(key, refresh)
    this.timers.set(key, undefined)
    void refresh()
  }

  /** Reads a layer again now (a reset, a tiled layer's new version, live updates gone). */
  refetch(key: string) {
    clearTimeout(this.timers.get(key))
    void this.refreshers.get(key)?.(true)
  }

  /** Stops every loop and the requests on their way. */
  stop() {
    this.controller.abort()
    this.timers.forEach((timer) => clearTimeout(timer))
    this.timers.clear()
  }
}
