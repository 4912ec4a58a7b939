import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { LayerLoops, type LoopTarget } from '@/layers/client/layerLoops'
import { LayerStates } from '@/layers/client/layerStates'
import type { DashboardData, DashboardLayer } from '@/layers/shared/types'

// The browser's refresh loops of a dashboard page, against a fetch that answers as the layer
// routes do (ETag, X-Data-State), with fake timers.

const layer = { id: '7', name: 'Air', attributes: ['no2'], refreshSeconds: 60, alertTexts: [] } as unknown as DashboardLayer
const data = { layers: { 7: layer }, previews: {}, tileThreshold: 20_000, cities: [], initial: {} } as unknown as DashboardData
const target: LoopTarget = { key: '7|', data, layer, city: '', reader: { locale: 'es', timeZone: 'Europe/Madrid', layer } }
const meta = (fetchedAt: string) => ({ count: 1, total: 1, fetchedAt, units: {} })
const feature = (id: string) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [-3.8, 43.46] }, properties: { no2: 1 } })

type Answer = { status?: number; etag?: string; stale?: boolean; body: unknown }
let answers: Answer[]
let requests: { url: string; release: () => void }[]
/** Each request waits for `release()` when `held`; answers in order, the last one again when none are left. */
let held: boolean

beforeEach(() => {
  vi.useFakeTimers()
  answers = []
  requests = []
  held = false
  vi.stubGlobal('fetch', (url: string) => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!
    const response = () =>
      new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { ...(answer.etag && { etag: answer.etag }), ...(answer.stale && { 'x-data-state': 'stale' }) },
      })
    return new Promise<Response>((resolve) => {
      const release = () => resolve(response())
      requests.push({ url, release })
      if (!held) release()
    })
  })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const settle = () => vi.advanceTimersByTimeAsync(0)

describe('LayerLoops', () => {
  it('reads a layer at once, then every refreshSeconds, and keeps the state of an unchanged version', async () => {
    answers = [{ etag: '"v1"', body: { features: [feature('a')], meta: meta('2026-12-03T10:00:00Z'), preview: { total: 1, head: [], alerting: [] } } }]
    const states = new LayerStates({})
    const loops = new LayerLoops(states)
    loops.start(target)
    await settle()
    // A small layer is asked for its size first (the preview), then read whole.
    expect(requests.map(({ url }) => url.split('?')[0])).toEqual(['/api/layers/7/preview', '/api/layers/7/features'])
    const first = states.current('7|')
    expect(first).toMatchObject({ status: 'ready', features: [{ id: 'a' }] })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requests).toHaveLength(3)
    expect(states.current('7|')).toBe(first)
    loops.stop()
  })

  it('asks one request at a time: asked again meanwhile, it reads once more after', async () => {
    answers = [{ etag: '"v1"', body: { features: [feature('a')], meta: meta('2026-12-03T10:00:00Z'), preview: { total: 1, head: [], alerting: [] } } }]
    const states = new LayerStates({})
    const loops = new LayerLoops(states)
    held = true
    loops.start(target)
    await settle()
    loops.refetch('7|')
    loops.refetch('7|')
    await settle()
    expect(requests).toHaveLength(1)
    held = false
    requests[0]!.release()
    await settle()
    // The preview, then the features; asked again meanwhile: one more read, not two.
    expect(requests.map(({ url }) => url.split('?')[0])).toEqual(['/api/layers/7/preview', '/api/layers/7/features', '/api/layers/7/features'])
    loops.stop()
  })

  it('reads again 2 s after an answer from a copy past its period, and not again after that', async () => {
    const states = new LayerStates({ '7|': { features: [feature('a')] as never, meta: meta('2026-12-03T09:00:00Z') as never, status: 'ready' } })
    answers = [
      { etag: '"v1"', stale: true, body: { features: [feature('a')], meta: meta('2026-12-03T09:00:00Z') } },
      { etag: '"v2"', stale: true, body: { features: [feature('b')], meta: meta('2026-12-03T10:00:00Z') } },
    ]
    const loops = new LayerLoops(states)
    loops.start(target)
    await settle()
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(requests).toHaveLength(2)
    expect(states.current('7|')).toMatchObject({ features: [{ id: 'b' }] })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(requests).toHaveLength(2)
    loops.stop()
  })

  it('keeps what it shows, marked stale, when a read fails; with nothing shown the layer is unavailable', async () => {
    const states = new LayerStates({ '7|': { features: [feature('a')] as never, meta: meta('2026-12-03T09:00:00Z') as never, status: 'ready' } })
    answers = [{ status: 502, body: { error: 'The broker did not answer' } }]
    const loops = new LayerLoops(states)
    loops.start(target)
    await settle()
    expect(states.current('7|')).toMatchObject({ status: 'ready', features: [{ id: 'a' }], meta: { stale: true } })
    loops.start({ ...target, key: '7|santander', city: 'santander' })
    await settle()
    expect(states.current('7|santander')).toEqual({ features: [], status: 'unavailable', message: 'The broker did not answer' })
    loops.stop()
  })

  it('a live layer is not polled; stopped, nothing more is asked', async () => {
    const states = new LayerStates({ '7|': { features: [], status: 'ready', live: { mode: 'live' } } })
    answers = [{ etag: '"v1"', body: { features: [feature('a')], meta: meta('2026-12-03T10:00:00Z') } }]
    const loops = new LayerLoops(states)
    loops.start(target)
    await settle()
    const first = requests.length
    await vi.advanceTimersByTimeAsync(180_000)
    expect(requests).toHaveLength(first)
    loops.stop()
    loops.refetch('7|')
    await vi.advanceTimersByTimeAsync(180_000)
    expect(requests.length).toBeLessThanOrEqual(first + 1)
  })
})
