import { describe, expect, it } from 'vitest'

import type { LiveModeEvent } from '@/layers/shared/liveEvents'
import { LiveLayers, type LiveLayersOptions } from '@/layers/server/liveLayers'
import type { LiveRecord } from '@/layers/server/liveSubscriptions'

// What pages are told of a layer's mode when the broker dies while a maintenance pass is on its
// way: the pass started with the broker answering, the probe then told every page "broker not
// answering", and the pass's own news (the check found the subscription failing) came after.

const record = { key: '7:santander', layerId: '7', tenant: 'santander', mode: 'polling' } as unknown as LiveRecord

function livePass(downDuringPass: string | undefined) {
  let downSince: string | undefined
  const published: Omit<LiveModeEvent, 'tenant'>[] = []
  const subscriptions = {
    brokerDownSince: async () => downSince,
    registryLost: async () => false,
    renew: async () => {
      downSince = downDuringPass
      return 0
    },
    check: async () => [record],
    records: async () => [record],
  }
  const hub = { publishMode: async ({ layerId, mode, brokerDownSince }: LiveModeEvent) => void published.push({ layerId, mode, ...(brokerDownSince && { brokerDownSince }) }) }
  const live = new LiveLayers({
    hub,
    subscriptions,
    features: {},
    layerSpec: async () => undefined,
    tileThreshold: 20_000,
    lock: async () => ({ release: async () => undefined }),
  } as unknown as LiveLayersOptions)
  return { live, published }
}

describe('a maintenance pass and the broker dying during it', () => {
  it('tells pages the broker is not answering, not only that the layer polls', async () => {
    const { live, published } = livePass('2026-12-03T18:00:00.000Z')
    expect(await live.maintain(5_000)).toBe(true)
    expect(published).toEqual([{ layerId: '7', mode: 'polling', brokerDownSince: '2026-12-03T18:00:00.000Z' }])
  })

  it('says only the mode when the broker still answers', async () => {
    const { live, published } = livePass(undefined)
    await live.maintain(5_000)
    expect(published).toEqual([{ layerId: '7', mode: 'polling' }])
  })
})
