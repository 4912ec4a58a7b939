import { describe, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import { withAlert } from '@/layers/server/body'
import { type History, historyPresentation, historyTable, historyToCsv } from '@/layers/shared/history'
import type { Feature } from '@/ngsi'

// Where the layer's display settings reach beyond the blocks: alert messages (made on the server)
// and the history's table and CSV.

const feature = (properties: Record<string, unknown>): Feature => ({
  type: 'Feature',
  id: 'urn:ngsi-ld:Device:1',
  geometry: { type: 'Point', coordinates: [-3.8, 43.46] },
  properties: { name: 'Sensor 1', ...properties },
})

const batteryRule: AlertRule = { attribute: 'batteryLevel', operator: 'lt', value: 0.15, level: 'warning', message: '{attribute} at {value}: replace soon' }

describe('alert messages', () => {
  const now = new Date('2026-11-19T13:40:00Z')

  it("write {value} and {attribute} as the layer shows the attribute: a fraction as a percentage, in the site's language", () => {
    const display = [{ attribute: 'batteryLevel', label: 'Batería', format: 'percent' as const }]
    const alerted = withAlert(feature({ batteryLevel: 0.08 }), [batteryRule], now, undefined, display)
    expect(alerted.properties.alert).toMatchObject({ level: 'warning', message: 'Batería at 8\u00a0%: replace soon' })
    // The value itself stays as the broker gave it.
    expect(alerted.properties.batteryLevel).toBe(0.08)
  })

  it('label enumerated values and write times of stale readings in the default time zone', () => {
    const display = [
      { attribute: 'deviceState', label: 'Estado', format: 'text' as const, valueLabels: [{ value: 'lowBattery', label: 'Batería baja' }] },
      { attribute: 'batteryLevel', label: 'Batería', format: 'percent' as const },
    ]
    const state: AlertRule = { attribute: 'deviceState', operator: 'eq', value: 'lowBattery', level: 'warning', message: '{attribute}: {value}' }
    expect(withAlert(feature({ deviceState: 'lowBattery' }), [state], now, undefined, display).properties.alert).toMatchObject({ level: 'warning', message: 'Estado: Batería baja' })
    const stale: AlertRule = { attribute: 'batteryLevel', operator: 'stale', value: 60, level: 'warning', message: '{attribute}: last reading {value}' }
    const old = feature({ batteryLevel: 0.5, observedAt: '2026-11-19T10:00:00Z' })
    expect(withAlert(old, [stale], now, undefined, display).properties.alert).toMatchObject({ level: 'warning', message: 'Batería: last reading 19 nov 2026, 11:00' })
  })

  it('stay as the engine wrote them for attributes the layer has no settings for', () => {
    const alerted = withAlert(feature({ batteryLevel: 0.08 }), [batteryRule], now, undefined, [{ attribute: 'other', label: 'Other' }])
    expect(alerted.properties.alert).toMatchObject({ level: 'warning', message: 'batteryLevel at 0.08: replace soon' })
    expect(withAlert(feature({ batteryLevel: 0.08 }), [batteryRule], now).properties.alert).toMatchObject({ level: 'warning', message: 'batteryLevel at 0.08: replace soon' })
  })
})

describe('history table and CSV', () => {
  const history: History = {
    layer: { id: '1', name: 'Air' },
    entity: { id: 'urn:ngsi-ld:AirQualityObserved:1', name: 'Centro, "Plaza"' },
    window: 'day',
    aggregation: 'raw',
    from: '2026-11-19T00:00:00.000Z',
    to: '2026-11-20T00:00:00.000Z',
    entities: 1,
    times: [Date.parse('2026-11-19T13:00:00Z'), Date.parse('2026-11-19T14:00:00Z')],
    series: [
      { attribute: 'no2', unit: 'µg/m³', values: [41.25, null] },
      { attribute: 'relativeHumidity', values: [0.65, 0.7] },
    ],
    display: [
      { attribute: 'no2', label: 'NO₂' },
      { attribute: 'relativeHumidity', label: 'Humedad', format: 'percent' },
    ],
  }

  it("heads the table with labels and the series' units; the reader's numbers and times", () => {
    const presentation = historyPresentation(history, { locale: 'es', timeZone: 'Europe/Madrid' })
    expect(historyTable(history, presentation).header).toEqual(['time', 'NO₂ (µg/m³)', 'Humedad'])
    expect(presentation.formatValue('relativeHumidity', 0.65)).toBe('65\u00a0%')
    expect(presentation.formatTime(history.times[0])).toBe('19 nov 2026, 14:00')
    expect(historyPresentation(history, { locale: 'pt', timeZone: 'Europe/Lisbon' }).formatTime(history.times[0])).toBe('19 de nov. de 2026, 13:00')
  })

  it('writes the CSV with labels, the place on every row, ISO times and raw values', () => {
    const csv = historyToCsv(history, historyPresentation(history, { locale: 'es', timeZone: 'Europe/Madrid' }))
    expect(csv).toBe(
      'time,place,NO₂ (µg/m³),Humedad\r\n' +
        '2026-11-19T13:00:00.000Z,"Centro, ""Plaza""",41.25,0.65\r\n' +
        '2026-11-19T14:00:00.000Z,"Centro, ""Plaza""",,0.7\r\n',
    )
    // The layer's name when the history covers all its places.
    const { entity: _entity, ...all } = history
    expect(historyToCsv(all, historyPresentation(all, { locale: 'en', timeZone: 'Europe/Madrid' })).split('\r\n')[1]).toBe('2026-11-19T13:00:00.000Z,Air,41.25,0.65')
  })
})
