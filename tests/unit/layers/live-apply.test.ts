import { describe, expect, it } from 'vitest'

import { applyChanges, createLayerEncoder, eachFeature, type LayerBody } from '@/layers/server/body'
import type { AlertRule } from '@/alerts'
import { type Feature, normalizeEntity } from '@/ngsi'

const rules: AlertRule[] = [{ attribute: 'no2', operator: 'gt', value: 100, level: 'critical', message: 'NO2 at {value}' } as AlertRule]
const at = new Date('2026-11-26T10:00:00.000Z')

const station = (id: number, no2: number, observedAt = '2026-11-26T09:55:00.000Z') =>
  normalizeEntity({
    id: `urn:ngsi-ld:AirQualityObserved:${id}`,
    type: 'AirQualityObserved',
    no2: { type: 'Property', value: no2, observedAt },
    location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8 + id / 100, 43.46] } },
  })

async function bodyOf(entities: ReturnType<typeof station>[]): Promise<LayerBody> {
  const encoder = createLayerEncoder({ attributes: ['no2'], alertRules: rules, fetchedAt: at })
  await encoder.add(entities)
  return encoder.finish(false)
}

async function featuresOf(body: LayerBody): Promise<Feature[]> {
  const features: Feature[] = []
  await eachFeature(body, (feature) => features.push(feature))
  return features
}

const asFeature = (entity: ReturnType<typeof station>, withGeometry = true): Feature => ({
  type: 'Feature',
  id: entity.id,
  geometry: withGeometry ? entity.location! : (undefined as unknown as Feature['geometry']),
  properties: { no2: entity.attributes.no2!.value, entityId: entity.id, entityType: entity.type, observedAt: entity.observedAt! },
})

describe('applyChanges (a live change merged into a cached layer body)', () => {
  it('replaces, appends and removes features, recomputes alerts, moves fetchedAt and changes the ETag', async () => {
    const body = await bodyOf([station(1, 20), station(2, 30), station(3, 40)])
    const later = new Date('2026-11-26T10:01:00.000Z')
    const applied = await applyChanges(
      body,
      { upserted: [asFeature(station(2, 150, '2026-11-26T10:00:30.000Z')), asFeature(station(4, 10))], removed: ['urn:ngsi-ld:AirQualityObserved:3'] },
      { alertRules: rules, now: later },
    )
    const features = await featuresOf(applied.body)
    expect(features.map((feature) => [feature.id.split(':').pop(), feature.properties.no2])).toEqual([
      ['1', 20],
      ['2', 150],
      ['4', 10],
    ])
    expect(features[1]!.properties.alert).toMatchObject({ level: 'critical', message: 'NO2 at 150' })
    expect(applied.body.meta).toMatchObject({ count: 3, fetchedAt: later.toISOString() })
    expect(applied.body.etag).not.toBe(body.etag)
    expect(applied.removed).toEqual(['urn:ngsi-ld:AirQualityObserved:3'])
    expect(applied.upserted.map((feature) => feature.id.split(':').pop())).toEqual(['2', '4'])
  })

  it('ignores a change older than the cached reading, keeps the geometry a change lacks, and clears a passed alert', async () => {
    const body = await bodyOf([station(1, 120, '2026-11-26T09:59:00.000Z')])
    const older = await applyChanges(body, { upserted: [asFeature(station(1, 5, '2026-11-26T09:00:00.000Z'))], removed: [] }, { alertRules: rules, now: at })
    expect(older.upserted).toEqual([])
    expect((await featuresOf(older.body))[0]!.properties.no2).toBe(120)
    const newer = await applyChanges(body, { upserted: [asFeature(station(1, 5, '2026-11-26T10:00:00.000Z'), false)], removed: [] }, { alertRules: rules, now: at })
    const [feature] = await featuresOf(newer.body)
    expect(feature!.geometry).toEqual({ type: 'Point', coordinates: [-3.79, 43.46] })
    expect(feature!.properties.no2).toBe(5)
    expect(feature!.properties.alert).toBeUndefined()
  })
})
