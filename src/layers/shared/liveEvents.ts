// The live-change contract, one home for both sides: what a layer change is inside the server
// (`LiveEvent`, on the bus between replicas), what a page receives of it over SSE (`LiveChange`,
// from GET /api/live), how consecutive changes merge into one (a stream behind, a burst) and how a
// change applies to the features a page holds. No Node or framework imports: the browser uses it.
import type { Feature } from '@/ngsi'

/** One applied notification of a (layer, city): the next version, what changed, when. */
export interface LiveEvent {
  layerId: string
  tenant: string
  version: number
  upserted: Feature[]
  removed: string[]
  /** The layer is drawn from tiles (large): the page refetches tiles of the new version. */
  tiles: boolean
  /** When the change was applied (ISO): the page's "last change" time. */
  at: string
}

/** A layer put on polling or back on live, so pages can say which. */
export interface LiveModeEvent {
  layerId: string
  tenant: string
  mode: 'live' | 'polling'
  /** Set while the broker does not answer (ISO, since when): pages label what they hold as stale. */
  brokerDownSince?: string
}

/** The SSE `change` event's data: a layer's features upserted and removed at `version`. */
export type LiveChange = { layer: string; version: number; at: string; upserted: Feature[]; removed: string[] }

/** The SSE `tiles` event's data: a tiled layer has a new version to refetch. */
export type LiveTilesChange = { layer: string; version: number; at: string }

/** The SSE `mode` event's data. */
export type LiveModeChange = { layer: string; mode: LiveModeEvent['mode']; brokerDownSince?: string }

/** How a layer is kept current now: pushed (`live`) or polled, and since when the broker does not answer. */
export type LiveMode = Pick<LiveModeEvent, 'mode' | 'brokerDownSince'>

/** The SSE `ready` event's data: each layer's version and mode when the stream opens. */
export type LiveReady = { layers: Record<string, LiveMode & { version: number }> }

/** The SSE `reset` event's data: layers whose missed changes the server no longer holds (fetch them again). */
export type LiveReset = { layers: string[] }

export const readyOf = (versions: Map<string, number>, modes: Record<string, LiveMode>): LiveReady => ({
  layers: Object.fromEntries([...versions].map(([layer, version]) => [layer, { version, ...modes[layer]! }])),
})

export const changeOf = (event: LiveEvent): LiveChange => ({ layer: event.layerId, version: event.version, at: event.at, upserted: event.upserted, removed: event.removed })

export const tilesChangeOf = (event: LiveEvent): LiveTilesChange => ({ layer: event.layerId, version: event.version, at: event.at })

export const modeChangeOf = (layer: string, { mode, brokerDownSince }: LiveMode): LiveModeChange => ({
  layer,
  mode,
  ...(brokerDownSince && { brokerDownSince }),
})

/**
 * Consecutive events of one channel as one: each feature as last upserted, each id last removed
 * (an id upserted then removed is only removed, and the other way round), the last version and
 * time. Tiled if any of them was: a page refetches a tiled layer's new version whole.
 */
export function mergeEvents(events: LiveEvent[]): LiveEvent {
  const last = events.at(-1)
  if (!last) throw new Error('mergeEvents: no events')
  if (events.length === 1) return last
  const upserted = new Map<string, Feature>()
  const removed = new Set<string>()
  for (const event of events) {
    for (const feature of event.upserted) {
      const id = String(feature.id)
      removed.delete(id)
      // Map order: a feature upserted again stays where it first came, as the page appends new ones.
      upserted.set(id, feature)
    }
    for (const id of event.removed) {
      upserted.delete(id)
      removed.add(id)
    }
  }
  return { ...last, upserted: [...upserted.values()], removed: [...removed], tiles: events.some((event) => event.tiles) }
}

/** The features a page holds with a change applied: removed ones dropped, upserted ones replaced in place, new ones appended. */
export function applyChange(features: Feature[], change: Pick<LiveChange, 'upserted' | 'removed'>): Feature[] {
  const replaced = new Map(change.upserted.map((feature) => [String(feature.id), feature]))
  const removed = new Set(change.removed)
  const applied = features.filter((feature) => !removed.has(String(feature.id))).map((feature) => replaced.get(String(feature.id)) ?? feature)
  const known = new Set(features.map((feature) => String(feature.id)))
  applied.push(...change.upserted.filter((feature) => !known.has(String(feature.id))))
  return applied
}
