// Which layers the maps of this page show, and which map answers a "Show on map": a small store
// outside React's tree, so an alerts panel anywhere on the page knows without a shared parent.
import { useSyncExternalStore } from 'react'

type Entry = { mapId: string; layerIds: string[]; element: () => HTMLElement | null }

let entries: Entry[] = []
let snapshot = ''
const listeners = new Set<() => void>()
/** The map whose own table asked last, honoured for a moment (the request follows at once). */
let preferred: { mapId: string; until: number } | undefined

const changed = () => {
  snapshot = [...new Set(entries.flatMap((entry) => entry.layerIds))].sort().join(',')
  for (const listener of listeners) listener()
}

/** A map on the page shows these layers; the returned function takes it off. */
export function registerMap(mapId: string, layerIds: string[], element: () => HTMLElement | null): () => void {
  const entry = { mapId, layerIds, element }
  entries = [...entries.filter((other) => other.mapId !== mapId), entry]
  changed()
  return () => {
    entries = entries.filter((other) => other !== entry)
    changed()
  }
}

/** The next "Show on map" comes from this map's own table: it, not the first map, opens the popup. */
export function preferMap(mapId: string) {
  preferred = { mapId, until: Date.now() + 1_000 }
}

/** Document order of the maps' frames (the first on the page answers), registration order as a fallback. */
function inPageOrder(candidates: Entry[]): Entry[] {
  return [...candidates].sort((a, b) => {
    const ea = a.element()
    const eb = b.element()
    if (!ea || !eb) return 0
    return ea.compareDocumentPosition(eb) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1
  })
}

/** The map that shows a requested feature of `layerId`: the one whose table asked, else the first on the page. */
export function mapFor(layerId: string): string | undefined {
  const showing = entries.filter((entry) => entry.layerIds.includes(layerId))
  if (preferred && preferred.until >= Date.now() && showing.some((entry) => entry.mapId === preferred!.mapId)) return preferred.mapId
  return inPageOrder(showing)[0]?.mapId
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The ids of the layers some map of the page shows (none before the maps have mounted). */
export function useMappedLayers(): Set<string> {
  const text = useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => '',
  )
  return new Set(text ? text.split(',') : [])
}
