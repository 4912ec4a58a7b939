import { describe, expect, it } from 'vitest'

import { type AttributeDisplay, createPresentation, humanise } from '@/layers/shared/presentation'

// Intl writes a no-break space between a number and "%" in Spanish, and this module one before units.
const nb = (text: string) => text.replaceAll(' ', '\u00a0')

const attributes: AttributeDisplay[] = [
  { attribute: 'no2', label: 'NO₂', unit: 'µg/m³', format: 'number' },
  { attribute: 'pm10', label: 'PM10', format: 'number', decimals: 1 },
  { attribute: 'batteryLevel', label: 'Batería', format: 'percent' },
  { attribute: 'count', label: 'Vehículos', format: 'integer' },
  {
    attribute: 'airQualityLevel',
    label: 'Calidad del aire',
    format: 'text',
    valueLabels: [
      { value: 'good', label: 'Buena' },
      { value: 'unhealthyForSensitiveGroups', label: 'Mala para grupos sensibles' },
    ],
  },
  { attribute: 'status', valueLabels: [{ value: '1', label: 'Abierto' }] },
]
const units = { no2: 'GQ-ignored', pm10: 'µg/m³', temperature: '°C', relativeHumidity: '%', windDirection: '°' }

const presentation = (locale: string, timeZone = 'Europe/Madrid') => createPresentation({ attributes, units, locale, timeZone })

describe('attribute labels', () => {
  it("gives the editor's label, else the name humanised", () => {
    const es = presentation('es')
    expect(es.attributeLabel('no2')).toBe('NO₂')
    expect(es.attributeLabel('airQualityLevel')).toBe('Calidad del aire')
    expect(es.attributeLabel('relativeHumidity')).toBe('Relative humidity')
    expect(es.attributeLabel('name')).toBe('Name')
  })

  it('humanises camelCase, snake_case and chemical names as a fallback only', () => {
    expect(humanise('airQualityLevel')).toBe('Air quality level')
    expect(humanise('unhealthyForSensitiveGroups')).toBe('Unhealthy for sensitive groups')
    expect(humanise('pm25')).toBe('PM25')
    expect(humanise('no2')).toBe('NO2')
    expect(humanise('battery_level')).toBe('Battery level')
    expect(humanise('dateObservedUTC')).toBe('Date observed UTC')
    expect(humanise('')).toBe('')
  })

  it('puts the unit after the label for column headers: the layer’s own, else the broker’s', () => {
    const es = presentation('es')
    expect(es.columnLabel('no2')).toBe('NO₂ (µg/m³)')
    expect(es.columnLabel('pm10')).toBe('PM10 (µg/m³)')
    expect(es.columnLabel('temperature')).toBe('Temperature (°C)')
    expect(es.columnLabel('batteryLevel')).toBe('Batería')
    expect(es.columnLabel('airQualityLevel')).toBe('Calidad del aire')
  })
})

describe('formatValue', () => {
  it('writes numbers in the locale, with a decimal comma in Spanish and Portuguese', () => {
    expect(presentation('es').formatValue('no2', 41.25)).toBe(nb('41,3 µg/m³'))
    expect(presentation('pt').formatValue('no2', 41.25)).toBe(nb('41,3 µg/m³'))
    expect(presentation('en').formatValue('no2', 41.25)).toBe(nb('41.3 µg/m³'))
    expect(presentation('en').formatValue('no2', 1234.5)).toBe(nb('1,235 µg/m³'))
    expect(presentation('pt').formatValue('no2', 1234.5)).toBe(nb('1.235 µg/m³'))
  })

  it('keeps the decimals an editor sets, and rounds integers', () => {
    expect(presentation('es').formatValue('pm10', 20)).toBe(nb('20,0 µg/m³'))
    expect(presentation('en').formatValue('pm10', 20.06)).toBe(nb('20.1 µg/m³'))
    expect(presentation('es').formatValue('count', 12.6)).toBe('13')
  })

  it('shows a fraction as a percentage, as each locale writes them', () => {
    expect(presentation('es').formatValue('batteryLevel', 0.08)).toBe(nb('8 %'))
    expect(presentation('pt').formatValue('batteryLevel', 0.08)).toBe('8%')
    expect(presentation('en').formatValue('batteryLevel', 0.085)).toBe('8.5%')
    expect(presentation('en').formatValue('batteryLevel', 1)).toBe('100%')
    expect(presentation('es').unitOf('batteryLevel')).toBeUndefined()
  })

  it('reads a broker percent unit (P1) as a percentage, and writes degrees without a space', () => {
    expect(presentation('es').formatValue('relativeHumidity', 65)).toBe(nb('65 %'))
    expect(presentation('en').formatValue('relativeHumidity', 65)).toBe('65%')
    expect(presentation('en').formatValue('windDirection', 270)).toBe('270°')
    expect(presentation('es').formatValue('temperature', 21.5)).toBe(nb('21,5 °C'))
  })

  it('leaves the unit off when asked (the caller shows it apart)', () => {
    expect(presentation('es').formatValue('no2', 41.25, { withUnit: false })).toBe('41,3')
    expect(presentation('es').unitOf('no2')).toBe('µg/m³')
  })

  it('labels enumerated values, and humanises unlabelled camelCase ones', () => {
    const es = presentation('es')
    expect(es.formatValue('airQualityLevel', 'good')).toBe('Buena')
    expect(es.formatValue('airQualityLevel', 'unhealthyForSensitiveGroups')).toBe('Mala para grupos sensibles')
    expect(es.formatValue('airQualityLevel', 'veryUnhealthy')).toBe('Very unhealthy')
    expect(es.formatValue('airQualityLevel', 'moderate')).toBe('moderate')
    expect(es.formatValue('status', 1)).toBe('Abierto')
    expect(es.formatValue('deviceState', 'lowBattery')).toBe('Low battery')
    // Names and free text stay as they are.
    expect(es.formatValue('name', 'Calle Mayor 3')).toBe('Calle Mayor 3')
    expect(es.formatValue('name', 'santanderCentro')).toBe('santanderCentro')
  })

  it('gives nothing for missing or unreadable values, and text for text', () => {
    const es = presentation('es')
    for (const missing of [null, undefined, '', '  ', Number.NaN, Number.POSITIVE_INFINITY]) expect(es.formatValue('no2', missing)).toBe('')
    expect(es.formatValue('no2', 'n/a')).toBe('n/a')
    expect(es.formatValue('no2', '12.5')).toBe(nb('12,5 µg/m³'))
    expect(es.formatValue('no2', { value: 3 })).toBe('{"value":3}')
    expect(es.formatValue('flag', true)).toBe('true')
    expect(es.formatValue('airQualityLevel', 42)).toBe('42')
  })

  it('survives an unknown locale or time zone', () => {
    const odd = createPresentation({ locale: 'not a locale!', timeZone: 'Mars/Olympus', attributes })
    expect(odd.formatValue('no2', 41.25)).toBe(nb('41,3 µg/m³'))
    expect(odd.formatTime('2026-11-19T13:40:00Z')).toBe('19 nov 2026, 14:40')
  })
})

describe('formatTime', () => {
  const at = '2026-11-19T13:40:00Z'

  it("writes a time in the locale and the city's time zone", () => {
    expect(presentation('es', 'Europe/Madrid').formatTime(at)).toBe('19 nov 2026, 14:40')
    expect(presentation('es', 'Europe/Lisbon').formatTime(at)).toBe('19 nov 2026, 13:40')
    expect(presentation('pt', 'Europe/Lisbon').formatTime(at)).toBe('19 de nov. de 2026, 13:40')
    expect(presentation('en', 'Europe/Madrid').formatTime(at)).toBe('Nov 19, 2026, 14:40')
    expect(presentation('es', 'Europe/Madrid').formatTime(Date.parse(at))).toBe('19 nov 2026, 14:40')
  })

  it('writes the time of day alone in the time zone', () => {
    expect(presentation('es', 'Europe/Madrid').formatClock(at)).toBe('14:40:00')
    expect(presentation('en', 'Europe/Lisbon').formatClock(at)).toBe('13:40:00')
    expect(presentation('en', 'Europe/Lisbon').formatClock('never')).toBe('')
  })

  it('follows summer time', () => {
    expect(presentation('es', 'Europe/Madrid').formatTime('2026-07-01T10:00:00Z')).toBe('1 jul 2026, 12:00')
    expect(presentation('es', 'Europe/Lisbon').formatTime('2026-07-01T10:00:00Z')).toBe('1 jul 2026, 11:00')
  })

  it('gives nothing for a missing or unreadable time', () => {
    const es = presentation('es')
    for (const bad of [undefined, null, '', 'yesterday', Number.NaN]) expect(es.formatTime(bad)).toBe('')
  })
})
