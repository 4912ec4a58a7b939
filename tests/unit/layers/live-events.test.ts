import { describe, expect, it } from 'vitest'

import { applyChange, changeOf, type LiveEvent, mergeEvents } from '@/layers/shared/liveEvents'
import type { Feature } from '@/ngsi'

const station = (id: string, index: number): Feature => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [0, 0] }, properties: { index } })
const event = (version: number, upserted: Feature[], removed: string[] = []): LiveEvent => ({ layerId: '1', tenant: 'santander', version, upserted, removed, tiles: false, at: `2026-12-02T10:00:0${version}Z` })
const indexes = (features: Feature[]) => features.map((feature) => `${feature.id}=${(feature.properties as { index: number }).index}`)

describe('the live-change contract', () => {
  it('applies a change in place: upserted ones replaced where they are, new ones appended, removed ones dropped', () => {
    const held = [station('a', 1), station('b', 2), station('c', 3)]
    const applied = applyChange(held, { upserted: [station('d', 4), station('b', 20)], removed: ['a'] })
    expect(indexes(applied)).toEqual(['b=20', 'c=3', 'd=4'])
    expect(indexes(held)).toEqual(['a=1', 'b=2', 'c=3'])
  })

  it('gives a page the same features from a merged burst as from its changes one by one', () => {
    const held = [station('a', 1), station('b', 2)]
    const burst = [event(1, [station('c', 3)]), event(2, [station('a', 10)], ['b']), event(3, [station('b', 21)], ['c']), event(4, [station('a', 11)])]
    const oneByOne = burst.reduce((features, change) => applyChange(features, change), held)
    const merged = mergeEvents(burst)
    expect(indexes(applyChange(held, merged))).toEqual(indexes(oneByOne))
    expect(changeOf(merged)).toMatchObject({ layer: '1', version: 4, at: '2026-12-02T10:00:04Z' })
  })
})
