import { describe, expect, it } from 'vitest'

import { mergeSeries, NgsiError, normalizeTemporal, parseContentRange, remainingWindow, temporalParams, validateTemporalQuery } from '@/ngsi'

import { fixture } from './helpers'

const temporal = (file: string, options = {}) => normalizeTemporal(fixture(`etsi-test-suite/temporal/${file}`), options)

describe('normalizeTemporal', () => {
  it('reads the instances representation (full IRIs shortened), oldest first', () => {
    const series = temporal('vehicle-temporal-representation-020-01.jsonld')
    expect(Object.keys(series).sort()).toEqual(['fuelLevel', 'speed'])
    expect(series.speed).toEqual([
      { value: 120, observedAt: '2020-08-01T12:03:00.000Z' },
      { value: 80, observedAt: '2020-08-01T12:05:00.000Z' },
      { value: 100, observedAt: '2020-08-01T12:07:00.000Z' },
    ])
  })

  it('reads temporalValues ({values: [[v, t]]}) to the same series', () => {
    const simplified = temporal('2020-08-vehicle-temporal-representation-temporal-values.json')
    const instances = temporal('vehicle-temporal-representation-020-01.jsonld')
    expect(simplified).toEqual(instances)
  })

  it('reads aggregated values ({avg: [[v, start, end]]}) with their period and method', () => {
    const series = temporal('vehicle-temporal-representation-aggregated-avg-PT1H.json')
    expect(series.fuelLevel).toHaveLength(3)
    expect(series.speed).toEqual([{ value: 100, observedAt: '2020-08-01T12:03:00.000Z', endAt: '2020-08-01T13:03:00.000Z', method: 'avg' }])
  })

  it('keeps datasetIds apart in the same series', () => {
    const series = temporal('vehicle-temporal-representation-two-datasetids.json', { id: 'urn:ngsi-ld:Vehicle:021-18-A' })
    expect(series.speed.map((point) => [point.observedAt.slice(11, 16), point.value, point.datasetId])).toEqual([
      ['12:05', 60, 'urn:ngsi-ld:Dataset:Speed'],
      ['12:05', 80, 'urn:ngsi-ld:Dataset:Common'],
      ['12:15', 62, 'urn:ngsi-ld:Dataset:Speed'],
      ['13:05', 90, 'urn:ngsi-ld:Dataset:Common'],
    ])
    expect(series.fuelLevel).toEqual([{ value: 53, observedAt: '2020-09-01T13:05:00.000Z', datasetId: 'urn:ngsi-ld:Dataset:Common' }])
  })

  it('reads LanguageProperty, VocabProperty and JsonProperty histories in both representations', () => {
    const normalized = temporal('vehicle-language-property-normalized-temporal-representation.jsonld', { language: 'es' })
    expect(normalized.street.map((point) => point.value)).toEqual(['Grand Place', 'Gran Mercado', 'Gran Lugar'])
    const simplified = temporal('vehicle-language-property-simplified-temporal-representation.jsonld', { language: 'es' })
    expect(simplified).toEqual(normalized)
    expect(temporal('vehicle-vocab-property-temporal-representation.json').vocabProperty.map((point) => point.value)).toEqual(['monument', 'sightseeing', ['monument', 'sightseeing']])
    expect(temporal('vehicle-json-property-temporal-representation.json').speed.map((point) => point.value)).toEqual([{ value: 120 }, { value: 80 }, { value: 100 }])
  })

  it('reads Mintaka answers: newest-first instances with units, temporalValues with 3-D points and relationship objects', () => {
    const cow = normalizeTemporal(fixture('tutorials/ngsi-ld-short-term-history/02-response.json'))
    expect(cow.heartRate.map((point) => point.observedAt)).toEqual([...cow.heartRate.map((point) => point.observedAt)].sort())
    expect(cow.heartRate[0]).toMatchObject({ unitCode: '5K', unit: '/min' })
    const simplified = normalizeTemporal(fixture('tutorials/ngsi-ld-short-term-history/04-response.json'))
    expect(simplified.location[0].value).toEqual({ type: 'Point', coordinates: [13.417, 52.484, 0] })
    const devices = normalizeTemporal(fixture('tutorials/ngsi-ld-short-term-history/10-response.json'), { id: 'urn:ngsi-ld:Device:pig002' })
    expect(devices.controlledAsset.map((point) => point.value)).toEqual(['urn:ngsi-ld:Animal:pig002', 'urn:ngsi-ld:Animal:pig002'])
    // Without observedAt (timeproperty=modifiedAt) the system time places the instance.
    const withoutObservedAt = normalizeTemporal(fixture('tutorials/ngsi-ld-short-term-history/05-response.json'))
    expect(withoutObservedAt.sex).toEqual([{ value: 'male', observedAt: '2021-09-16T10:22:39.650Z' }])
  })

  it('rejects an answer that is not an entity', () => {
    expect(() => normalizeTemporal('nope')).toThrow(NgsiError)
  })
})

describe('temporal paging helpers', () => {
  it('parses Content-Range with dashes inside the dates, in either order', () => {
    expect(parseContentRange('date-time 2024-01-01T00:00:00.000Z-2024-01-07T00:00:00.000Z/*')).toEqual({ start: '2024-01-01T00:00:00.000Z', end: '2024-01-07T00:00:00.000Z' })
    expect(parseContentRange('date-time 2021-09-16T11:00-2021-09-16T10:22:39.650/3')).toEqual({ start: '2021-09-16T10:22:39.650Z', end: '2021-09-16T11:00:00.000Z' })
    expect(parseContentRange('bytes 0-100/200')).toBeUndefined()
    expect(parseContentRange(null)).toBeUndefined()
  })

  it('asks for the rest: after the range without lastN, before it with lastN', () => {
    const range = { start: '2024-01-01T00:00:00.000Z', end: '2024-01-02T00:00:00.000Z' }
    expect(remainingWindow({}, range, 100)).toEqual({ timerel: 'after', timeAt: range.end, endTimeAt: undefined })
    expect(remainingWindow({ timerel: 'before', timeAt: '2024-02-01T00:00:00Z' }, range, 100)).toEqual({ timerel: 'between', timeAt: range.end, endTimeAt: '2024-02-01T00:00:00Z' })
    expect(remainingWindow({ lastN: 250 }, range, 100)).toEqual({ lastN: 150, timerel: 'before', timeAt: range.start, endTimeAt: undefined })
    expect(remainingWindow({ lastN: 250, timerel: 'after', timeAt: '2023-12-01T00:00:00Z' }, range, 100)).toEqual({ lastN: 150, timerel: 'between', timeAt: '2023-12-01T00:00:00Z', endTimeAt: range.start })
    expect(remainingWindow({ lastN: 100 }, range, 100)).toBeUndefined()
    // No progress: stop instead of asking the same window forever.
    expect(remainingWindow({ timerel: 'after', timeAt: range.end }, range, 10)).toBeUndefined()
  })

  it('merges overlapping pages without duplicates', () => {
    const series = mergeSeries({ t: [{ value: 1, observedAt: '2024-01-01T00:00:00.000Z' }] }, { t: [{ value: 2, observedAt: '2024-01-02T00:00:00.000Z' }, { value: 1, observedAt: '2024-01-01T00:00:00.000Z' }] })
    expect(series.t.map((point) => point.value)).toEqual([1, 2])
  })

  it('validates temporal queries and writes their parameters', () => {
    expect(temporalParams(validateTemporalQuery({ attrs: ['temperature'], timerel: 'between', timeAt: '2024-01-01T00:00:00+01:00', endTimeAt: '2024-01-02T00:00:00Z', aggrMethods: ['avg', 'max'], aggrPeriodDuration: 'PT1H' }))).toEqual({
      attrs: ['temperature'],
      lastN: undefined,
      timerel: 'between',
      timeAt: '2023-12-31T23:00:00.000Z',
      endTimeAt: '2024-01-02T00:00:00.000Z',
      options: 'aggregatedValues',
      aggrMethods: ['avg', 'max'],
      aggrPeriodDuration: 'PT1H',
    })
    for (const bad of [{ timerel: 'before' as const }, { timerel: 'between' as const, timeAt: '2024-01-01T00:00:00Z' }, { timeAt: '2024-01-01T00:00:00Z' }, { lastN: 0 }, { aggrPeriodDuration: '1 hour' }, { attrs: ['a;b'] }]) {
      expect(() => validateTemporalQuery(bad), JSON.stringify(bad)).toThrow(NgsiError)
    }
  })
})
