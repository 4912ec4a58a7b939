import { afterAll, beforeAll, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import type { FreshAlerts } from '@/alerts/notices'
import { createMemoryCache } from '@/cache'
import { LayerFeatureService, type LayerSpec } from '@/layers/server/features'
import { type Feature, NgsiClient } from '@/ngsi'

import { sendJson, startServer, type TestServer } from '../ngsi/helpers'

// Alert notices hear about alerts from polled loads and pushed changes alike (one listener):
// a station whose pushed reading crosses a rule is told once, with its rule.

const station = (id: number, no2: number) => ({
  id: `urn:ngsi-ld:AirQualityObserved:${id}`,
  type: 'AirQualityObserved',
  name: { type: 'Property', value: `Station ${id}` },
  no2: { type: 'Property', value: no2, observedAt: '2026-11-26T09:55:00.000Z' },
  location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8 + id / 100, 43.46] } },
})

let broker: TestServer
beforeAll(async () => {
  broker = await startServer(async (_request, response) => sendJson(response, 200, [station(1, 20), station(2, 30)], { 'NGSILD-Results-Count': '2' }))
})
afterAll(async () => {
  await broker?.close()
})

const layer: LayerSpec = {
  id: 'air',
  updatedAt: '2026-01-01T00:00:00.000Z',
  entityType: 'AirQualityObserved',
  attributes: ['name', 'no2'],
  filters: [],
  alertRules: [{ attribute: 'no2', operator: 'gt', value: 100, level: 'critical', message: 'NO2 at {value}' } as AlertRule],
  refreshSeconds: 60,
  maxFeatures: 1_000,
}

it('tells the alert listener about an alert a pushed change sets off, and about nothing else', async () => {
  const heard: FreshAlerts[] = []
  const service = new LayerFeatureService({
    client: new NgsiClient({ brokerUrl: broker.url, retries: 0 }),
    cache: createMemoryCache({ maxEntries: 100, maxBytes: 1024 * 1024 }),
    onFreshAlerts: (alerts) => heard.push(alerts),
  })
  await service.get(layer, { tenant: 'santander' })
  expect(heard.flatMap((one) => one.alerts)).toEqual([])

  const pushed: Feature = {
    type: 'Feature',
    id: 'urn:ngsi-ld:AirQualityObserved:2',
    geometry: { type: 'Point', coordinates: [-3.78, 43.46] },
    properties: { no2: 150, observedAt: '2026-11-26T10:00:30.000Z' },
  }
  const applied = await service.applyLive(layer, 'santander', { upserted: [pushed], removed: [] })
  expect(applied?.upserted).toHaveLength(1)
  const fired = heard.flatMap((one) => one.alerts.map((alert) => ({ city: one.city, layerId: one.layerId, alert })))
  expect(fired).toHaveLength(1)
  expect(fired[0]).toMatchObject({ city: 'santander', layerId: 'air', alert: { featureId: 'urn:ngsi-ld:AirQualityObserved:2', placeName: 'Station 2', level: 'critical', message: 'NO2 at 150' } })
  expect(fired[0]!.alert.rule).toMatchObject({ attribute: 'no2', operator: 'gt' })
})
