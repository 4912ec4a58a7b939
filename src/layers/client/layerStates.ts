// The page's layer states, keyed (layer, city), outside React: the refresh loops and the live
// stream write them, blocks read them through useSyncExternalStore.
import type { LayerState } from './layerState'

export type States = Record<string, LayerState>

export class LayerStates {
  private states: States
  private readonly listeners = new Set<() => void>()

  constructor(initial: States) {
    this.states = initial
  }

  /** Every state; a new object after each change. */
  snapshot = (): States => this.states

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  current = (key: string): LayerState | undefined => this.states[key]

  /** Sets the state of `key` from its previous one. */
  update = (key: string, next: (previous: LayerState | undefined) => LayerState) => {
    this.states = { ...this.states, [key]: next(this.states[key]) }
    this.listeners.forEach((listener) => listener())
  }

  /** Changes the state of `key` if the page has one (a pushed change for a layer no block shows is dropped). */
  change = (key: string, next: (previous: LayerState) => LayerState) => {
    const previous = this.states[key]
    if (previous) this.update(key, () => next(previous))
  }
}
