import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { airQualityIndexOf, airQualityLevel, CROSSING_STATION_ORDINAL, EntityView, generateTenants, type Tenant } from '../../../demo/broker/data'
import { startLiveUpdates } from '../../../demo/broker/live'
import type { EntityChange } from '../../../demo/broker/updates'

const TICK_MS = 5_000
const SIMULATED_MS = 25 * 60_000
const LIMIT = 200

const valueOf = (view: EntityView, name: string) => Number((view.attribute(name) as { value?: unknown } | undefined)?.value)

/** What a subscriber is told: the entity's attributes as they are when the change is notified. */
type Notice = { tenant: Tenant; change: EntityChange; readings: Record<'no2' | 'pm10' | 'pm25' | 'o3' | 'airQualityIndex', number>; level: unknown }

function noticeOf(tenant: Tenant, change: EntityChange, atMs: number): Notice {
  const view = new EntityView(change.entity, atMs)
  const [no2, pm10, pm25, o3, airQualityIndex] = (['no2', 'pm10', 'pm25', 'o3', 'airQualityIndex'] as const).map((name) => valueOf(view, name))
  return { tenant, change, readings: { no2, pm10, pm25, o3, airQualityIndex }, level: (view.attribute('airQualityLevel') as { value?: unknown } | undefined)?.value }
}

// The live walk picks one of the first 12 entities (ordinals from 1) with Math.random and moves its values by it: the
// real one, one that always picks the crossing station and pushes its NO₂ down, one that never picks it.
const WALKS: [string, (() => number) | undefined][] = [
  ['a random walk', undefined],
  ['a walk that always pushes the crossing station down', () => (CROSSING_STATION_ORDINAL - 0.5) / 12],
  ['a walk that never picks the crossing station', () => 0.99],
]

describe.each(WALKS)('the demo broker in live mode, over 25 simulated minutes, with %s', (_name, random) => {
  let nowMs = 0
  let notified: Notice[] = []
  let tenants: Tenant[] = []
  let live: { stop(): void }

  beforeEach(() => {
    vi.useFakeTimers()
    if (random) vi.spyOn(Math, 'random').mockImplementation(random)
    // Any start: half past ten, when the walk has had no time to settle anywhere.
    nowMs = Date.parse('2026-12-06T10:30:00Z')
    notified = []
    tenants = generateTenants()
    live = startLiveUpdates(tenants, TICK_MS, () => new Date(nowMs), (tenant, changes) => notified.push(...changes.map((change) => noticeOf(tenant, change, nowMs))))
    for (let elapsed = 0; elapsed < SIMULATED_MS; elapsed += TICK_MS) {
      nowMs += TICK_MS
      vi.advanceTimersByTime(TICK_MS)
    }
  })

  afterEach(() => {
    live.stop()
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('has both demo cities', () => {
    expect(tenants.map(({ name }) => name)).toEqual(expect.arrayContaining(['santander', 'porto']))
  })

  it("notifies each city's crossing station going over the NO₂ limit, and back under it, whatever the walk does", () => {
    for (const tenant of tenants) {
      const station = tenant.byType.get('AirQualityObserved')!.find(({ ordinal }) => ordinal === CROSSING_STATION_ORDINAL)!
      const readings = notified
        .filter((note) => note.tenant === tenant && note.change.entity === station && note.change.attributes.includes('no2'))
        .map(({ readings }) => readings.no2)
      const sides = readings.map((no2) => no2 > LIMIT)
      const upward = sides.some((above, index) => index > 0 && above && !sides[index - 1])
      expect(upward, `${tenant.name}: NO₂ notified ${readings.join(', ')}`).toBe(true)
      expect(sides.some((above) => !above), `${tenant.name}: never below the limit`).toBe(true)
    }
  })

  it('gives every air-quality reading it writes the index and level of its values', () => {
    const written = notified.filter(({ change }) => change.entity.type === 'AirQualityObserved' && change.attributes.includes('no2'))
    expect(written.length).toBeGreaterThan(100)
    for (const { readings, level } of written) {
      const index = airQualityIndexOf(readings)
      expect(readings.airQualityIndex).toBe(index)
      expect(level).toBe(airQualityLevel(index))
    }
  })
})
