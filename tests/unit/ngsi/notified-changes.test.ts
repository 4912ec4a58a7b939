import { describe, expect, it } from 'vitest'

import { NOTIFICATION_CLOCK_SKEW_MS, notifiedChanges, type NotificationBody } from '@/ngsi'

const NOW = Date.parse('2026-12-02T10:00:00.000Z')
const expected = { entityType: 'AirQualityObserved', now: NOW, maxSkewMs: NOTIFICATION_CLOCK_SKEW_MS }

const station = (id: string, type: string | string[], observedAt: string, extra: Record<string, unknown> = {}) => ({
  id,
  type,
  no2: { type: 'Property', value: 40, observedAt },
  location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.8, 43.46] } },
  ...extra,
})

const body = (...data: Record<string, unknown>[]): NotificationBody => ({ type: 'Notification', subscriptionId: 'urn:ngsi-ld:Subscription:1', data })

describe('notifiedChanges: a notification is a hint, checked against what was subscribed', () => {
  it('keeps entities of the subscribed type observed up to now plus the clock skew', () => {
    const changes = notifiedChanges(body(station('urn:a', 'AirQualityObserved', '2026-12-02T10:04:00Z'), station('urn:b', 'https://smartdatamodels.org/dataModel.Environment/AirQualityObserved', '2026-12-02T09:00:00Z')), expected)
    expect(changes.upserted.map((entity) => entity.id)).toEqual(['urn:a', 'urn:b'])
    expect(changes.skipped).toBe(0)
  })

  it('leaves out entities of another type (fake stations of any kind) and ones dated in the future (a 2099 pin)', () => {
    const changes = notifiedChanges(
      body(
        station('urn:fake', 'WeatherObserved', '2026-12-02T10:00:00Z'),
        station('urn:pinned', 'AirQualityObserved', '2099-01-01T00:00:00Z'),
        station('urn:modified', 'AirQualityObserved', '2026-12-02T09:00:00Z', { modifiedAt: '2099-01-01T00:00:00Z' }),
        station('urn:soon', 'AirQualityObserved', new Date(NOW + NOTIFICATION_CLOCK_SKEW_MS + 1000).toISOString()),
        station('urn:real', ['AirQualityObserved', 'Device'], '2026-12-02T09:59:00Z'),
      ),
      expected,
    )
    expect(changes.upserted.map((entity) => entity.id)).toEqual(['urn:real'])
    expect(changes.skipped).toBe(4)
  })

  it('takes no deletion dated in the future, and applies a deletion of now', () => {
    const changes = notifiedChanges(body({ id: 'urn:x', type: 'AirQualityObserved', deletedAt: '2099-01-01T00:00:00Z' }, { id: 'urn:y', type: 'AirQualityObserved', deletedAt: '2026-12-02T10:00:00Z' }), expected)
    expect(changes.removed).toEqual(['urn:y'])
    expect(changes.skipped).toBe(1)
  })
})
