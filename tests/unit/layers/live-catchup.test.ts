import { describe, expect, it } from 'vitest'

import { type BusMessage, LiveHub, localBus } from '@/layers/server/live'
import { type LiveEvent, mergeEvents } from '@/layers/shared/liveEvents'
import type { Feature } from '@/ngsi'

// A stream whose client fell behind gets the changes it missed as one event: merged in order,
// versions kept, made once for every stream as far behind.

const station = (id: string, no2: number): Feature => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [0, 0] }, properties: { no2 } })
const event = (version: number, upserted: Feature[], removed: string[] = [], tiles = false): LiveEvent => ({
  layerId: '7',
  tenant: 'santander',
  version,
  upserted,
  removed,
  tiles,
  at: `2026-11-26T10:00:0${version}.000Z`,
})
const valuesOf = (merged: LiveEvent) => merged.upserted.map((feature) => [feature.id, feature.properties.no2])

describe('mergeEvents (consecutive changes of one layer as one)', () => {
  it('keeps each feature as last changed, in the order features first came, with the last version and time', () => {
    const merged = mergeEvents([event(4, [station('a', 1), station('b', 2)]), event(5, [station('c', 3), station('a', 10)]), event(6, [station('b', 20)])])
    expect(valuesOf(merged)).toEqual([
      ['a', 10],
      ['b', 20],
      ['c', 3],
    ])
    expect(merged).toMatchObject({ version: 6, at: '2026-11-26T10:00:06.000Z', removed: [], tiles: false })
  })

  it('makes a feature removed after its change only removed, and one changed after its removal only changed', () => {
    const merged = mergeEvents([event(1, [station('a', 1), station('b', 2)], ['c']), event(2, [station('c', 3)], ['a'])])
    expect(valuesOf(merged)).toEqual([
      ['b', 2],
      ['c', 3],
    ])
    expect(merged.removed).toEqual(['a'])
  })

  it('is tiled when any of the changes was (the page refetches the new version whole)', () => {
    expect(mergeEvents([event(1, [], [], true), event(2, [station('a', 1)])]).tiles).toBe(true)
  })
})

describe('LiveHub.catchUp (what a stream behind still needs)', () => {
  const channel = '7:santander'
  const publish = (hub: LiveHub, upserted: Feature[]) => hub.publishChange({ layerId: '7', tenant: 'santander', upserted, removed: [], tiles: false, at: new Date().toISOString() })

  it('gives one merged event up to the latest version, the same one to every stream as far behind, and nothing to a stream up to date', async () => {
    const hub = new LiveHub({ bus: localBus() })
    await publish(hub, [station('a', 1)])
    await publish(hub, [station('a', 2), station('b', 1)])
    await publish(hub, [station('b', 5)])
    const caughtUp = hub.catchUp(channel, 1)
    expect(caughtUp.kind).toBe('change')
    const merged = caughtUp.kind === 'change' ? caughtUp.event : undefined
    expect(merged?.version).toBe(3)
    expect(valuesOf(merged!)).toEqual([
      ['a', 2],
      ['b', 5],
    ])
    expect(hub.catchUp(channel, 1)).toEqual(caughtUp)
    expect((hub.catchUp(channel, 1) as { event: LiveEvent }).event).toBe(merged)
    expect(hub.catchUp(channel, 3)).toEqual({ kind: 'none' })

    await publish(hub, [station('c', 7)])
    const later = hub.catchUp(channel, 1)
    expect(later.kind === 'change' && [later.event.version, valuesOf(later.event)]).toEqual([
      4,
      [
        ['a', 2],
        ['b', 5],
        ['c', 7],
      ],
    ])
  })

  it('says reset when the window no longer holds every change since the stream’s version', async () => {
    const hub = new LiveHub({ bus: localBus(), windowEvents: 2 })
    for (let value = 1; value <= 4; value++) await publish(hub, [station('a', value)])
    expect(hub.catchUp(channel, 1)).toEqual({ kind: 'reset', version: 4 })
    expect(hub.catchUp(channel, 2)).toMatchObject({ kind: 'change', event: { version: 4 } })
  })

  it('hands a burst that arrives while a change goes out to listeners once, as the latest, with the rest caught up in order', async () => {
    const hub = new LiveHub({ bus: localBus() })
    const heard: number[] = []
    hub.listen([channel], (message: BusMessage) => message.kind === 'change' && heard.push(message.event.version))
    await publish(hub, [station('a', 1)])
    // While the first is still going out (its writes run before the event loop comes round).
    await publish(hub, [station('a', 2)])
    await publish(hub, [station('b', 3)])
    await expect.poll(() => heard).toEqual([1, 3])
    const caughtUp = hub.catchUp(channel, 1)
    expect(caughtUp.kind === 'change' && [caughtUp.event.version, valuesOf(caughtUp.event)]).toEqual([
      3,
      [
        ['a', 2],
        ['b', 3],
      ],
    ])
    await publish(hub, [station('a', 4)])
    await expect.poll(() => heard).toEqual([1, 3, 4])
  })
})
