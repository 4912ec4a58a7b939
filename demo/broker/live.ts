// Live mode (`npm run demo`): every few seconds one entity of each type in each city gets new
// readings through the same write path as a PATCH, so subscribers are notified and the
// dashboard visibly moves.

import { airQualityLevel, EntityView, type Tenant } from './data'
import { updateAttributes, type EntityChange } from './updates'

/** Only the first few entities move, so a viewer sees the same markers change. */
const MOVING_ENTITIES = 12

export function startLiveUpdates(tenants: Tenant[], intervalMs: number, now: () => Date, notify: (tenant: Tenant, changes: EntityChange[]) => void): { stop(): void } {
  const timer = setInterval(() => {
    const nowDate = now()
    for (const tenant of tenants) {
      const changes: EntityChange[] = []
      for (const [type, entities] of tenant.byType) {
        const entity = entities[Math.floor(Math.random() * Math.min(MOVING_ENTITIES, entities.length))]
        if (!entity) continue
        const view = new EntityView(entity, nowDate.getTime())
        const current = (name: string) => Number((view.attribute(name) as { value?: unknown } | undefined)?.value ?? 0)
        const step = (name: string, size: number, min: number, max: number, decimals = 1) =>
          Math.round(Math.min(max, Math.max(min, current(name) + (Math.random() - 0.5) * 2 * size)) * 10 ** decimals) / 10 ** decimals
        let fragment: Record<string, unknown>
        if (type === 'WeatherObserved') {
          fragment = { temperature: { type: 'Property', value: step('temperature', 0.6, -20, 45), unitCode: 'CEL' } }
        } else if (type === 'AirQualityObserved') {
          const index = Math.round(step('airQualityIndex', 12, 5, 250, 0))
          fragment = {
            no2: { type: 'Property', value: step('no2', 8, 2, 400), unitCode: 'GQ' },
            airQualityIndex: { type: 'Property', value: index },
            airQualityLevel: { type: 'Property', value: airQualityLevel(index) },
          }
        } else {
          fragment = { batteryLevel: { type: 'Property', value: step('batteryLevel', 0.02, 0.03, 1, 2) } }
        }
        const { change } = updateAttributes(tenant, entity.id, fragment, nowDate.toISOString(), 'update')
        if (change) changes.push(change)
      }
      if (changes.length) notify(tenant, changes)
    }
  }, intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
