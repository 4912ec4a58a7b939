// Live mode (`npm run demo`): every few seconds one entity of each type in each city gets new
// readings through the same write path as a PATCH, so subscribers are notified and the
// dashboard visibly moves.

import { airQualityIndexOf, airQualityLevel, CROSSING_STATION_ORDINAL, crossingIsAbove, crossingNo2, EntityView, type StaticEntity, type Tenant } from './data'
import { updateAttributes, type EntityChange } from './updates'

/** Only the first few entities move, so a viewer sees the same markers change. */
const MOVING_ENTITIES = 12

/** An attribute's number as the entity shows it now (0 when it has none). */
const numberOf = (view: EntityView, name: string) => Number((view.attribute(name) as { value?: unknown } | undefined)?.value ?? 0)

const property = (value: unknown, unitCode?: string) => ({ type: 'Property', value, ...(unitCode ? { unitCode } : {}) })

/**
 * New air-quality readings with `no2`: the index and level worked out from the station's values (a
 * walk of the index alone had shown "moderate" beside NO₂ 245), and the crossing station's NO₂ kept
 * on its schedule (walked, it had stayed on one side of the limit for good).
 */
function airQualityFragment(entity: StaticEntity, view: EntityView, nowMs: number, walkedNo2: number) {
  const no2 = entity.ordinal === CROSSING_STATION_ORDINAL ? Math.round(crossingNo2(entity, nowMs) * 10) / 10 : walkedNo2
  const index = airQualityIndexOf({ no2, pm10: numberOf(view, 'pm10'), pm25: numberOf(view, 'pm25'), o3: numberOf(view, 'o3') })
  return { no2: property(no2, 'GQ'), airQualityIndex: property(index), airQualityLevel: property(airQualityLevel(index)) }
}

/** Which side of the limit each city's crossing station was last written on. */
const crossingSides = new WeakMap<StaticEntity, boolean>()

/** The crossing station written when its schedule crosses the limit, so subscribers hear of every crossing. */
function crossingChange(tenant: Tenant, nowDate: Date): EntityChange | undefined {
  const station = tenant.byType.get('AirQualityObserved')?.find((entity) => entity.ordinal === CROSSING_STATION_ORDINAL)
  if (!station) return undefined
  const above = crossingIsAbove(nowDate.getTime())
  if (crossingSides.get(station) === above) return undefined
  crossingSides.set(station, above)
  const fragment = airQualityFragment(station, new EntityView(station, nowDate.getTime()), nowDate.getTime(), 0)
  return updateAttributes(tenant, station.id, fragment, nowDate.toISOString(), 'update').change
}

export function startLiveUpdates(tenants: Tenant[], intervalMs: number, now: () => Date, notify: (tenant: Tenant, changes: EntityChange[]) => void): { stop(): void } {
  const timer = setInterval(() => {
    const nowDate = now()
    for (const tenant of tenants) {
      const changes: EntityChange[] = []
      for (const [type, entities] of tenant.byType) {
        const entity = entities[Math.floor(Math.random() * Math.min(MOVING_ENTITIES, entities.length))]
        if (!entity) continue
        const view = new EntityView(entity, nowDate.getTime())
        const current = (name: string) => numberOf(view, name)
        const step = (name: string, size: number, min: number, max: number, decimals = 1) =>
          Math.round(Math.min(max, Math.max(min, current(name) + (Math.random() - 0.5) * 2 * size)) * 10 ** decimals) / 10 ** decimals
        let fragment: Record<string, unknown>
        if (type === 'WeatherObserved') {
          fragment = { temperature: { type: 'Property', value: step('temperature', 0.6, -20, 45), unitCode: 'CEL' } }
        } else if (type === 'AirQualityObserved') {
          fragment = airQualityFragment(entity, view, nowDate.getTime(), step('no2', 8, 2, 400))
        } else {
          fragment = { batteryLevel: { type: 'Property', value: step('batteryLevel', 0.02, 0.03, 1, 2) } }
        }
        const { change } = updateAttributes(tenant, entity.id, fragment, nowDate.toISOString(), 'update')
        if (change) changes.push(change)
      }
      const crossing = crossingChange(tenant, nowDate)
      if (crossing && !changes.some(({ entity }) => entity === crossing.entity)) changes.push(crossing)
      if (changes.length) notify(tenant, changes)
    }
  }, intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
