import { describe, expect, it } from 'vitest'

import { alertsOf } from '@/layers/shared/alerts'
import { csvHeader, csvRows } from '@/layers/shared/csv'
import { createPresentation } from '@/layers/shared/presentation'
import { featureName, observedAgo } from '@/layers/shared/format'
import { previewOf, statisticKey } from '@/layers/shared/preview'
import { sortFeatures } from '@/layers/shared/sorting'
import { computeStatistic, extremeHolder, trendOf } from '@/layers/shared/statistics'
import type { Feature } from '@/ngsi'

const feature = (id: string, properties: Feature['properties'], coordinates = [-3.8, 43.46]): Feature => ({
  type: 'Feature',
  id,
  geometry: { type: 'Point', coordinates },
  properties,
})

const stations = [
  feature('a', { name: 'Centro', no2: 40, pm10: 12 }),
  feature('b', { name: 'Puerto', no2: 215.5, pm10: null }),
  feature('c', { name: 'Sardinero', no2: 'n/a', pm10: 30 }),
  feature('d', { name: 'Castilla', no2: 10 }),
]

describe('computeStatistic', () => {
  it('counts every feature, aggregates only finite numbers', () => {
    expect(computeStatistic(stations, 'count')).toBe(4)
    expect(computeStatistic(stations, 'max', 'no2')).toBe(215.5)
    expect(computeStatistic(stations, 'min', 'no2')).toBe(10)
    expect(computeStatistic(stations, 'sum', 'no2')).toBe(265.5)
    expect(computeStatistic(stations, 'average', 'no2')).toBeCloseTo(88.5)
    expect(computeStatistic(stations, 'average', 'pm10')).toBe(21)
  })

  it('has no value when nothing is numeric', () => {
    expect(computeStatistic(stations, 'average', 'name')).toBeUndefined()
    expect(computeStatistic([], 'max', 'no2')).toBeUndefined()
    expect(computeStatistic([], 'count')).toBe(0)
  })

  it('handles large layers without a stack overflow', () => {
    const many = Array.from({ length: 200_000 }, (_, index) => feature(String(index), { v: index }))
    expect(computeStatistic(many, 'max', 'v')).toBe(199_999)
  })
})

describe('trendOf', () => {
  it('says up, down or flat, with the change', () => {
    expect(trendOf(12, 10)).toEqual({ direction: 'up', delta: 2 })
    expect(trendOf(8, 10)).toEqual({ direction: 'down', delta: -2 })
    expect(trendOf(10.0001, 10)?.direction).toBe('flat')
    expect(trendOf(undefined, 10)).toBeUndefined()
    expect(trendOf(3, undefined)).toBeUndefined()
  })
})

describe('sortFeatures', () => {
  it('sorts numbers numerically, then text, with missing values last in both directions', () => {
    expect(sortFeatures(stations, 'no2', 'ascending').map((item) => item.id)).toEqual(['d', 'a', 'b', 'c'])
    expect(sortFeatures(stations, 'no2', 'descending').map((item) => item.id)).toEqual(['b', 'a', 'd', 'c'])
    expect(sortFeatures(stations, 'pm10', 'ascending').map((item) => item.id)).toEqual(['a', 'c', 'b', 'd'])
    expect(sortFeatures(stations, 'pm10', 'descending').map((item) => item.id)).toEqual(['c', 'a', 'b', 'd'])
  })

  it('compares text naturally and leaves the input untouched', () => {
    const named = [feature('1', { name: 'Station 10' }), feature('2', { name: 'Station 9' })]
    expect(sortFeatures(named, 'name', 'ascending').map((item) => item.id)).toEqual(['2', '1'])
    expect(named.map((item) => item.id)).toEqual(['1', '2'])
  })
})

const featuresToCsv = (features: Parameters<typeof csvRows>[0], columns: string[]) => csvHeader(columns) + csvRows(features, columns)

describe('csvHeader and csvRows', () => {
  it('writes RFC 4180 CSV with coordinates', () => {
    const csv = featuresToCsv([feature('urn:x:1', { name: 'Calle "Mayor", 3', no2: 40 })], ['name', 'no2'])
    expect(csv).toBe('id,name,observedAt,no2,longitude,latitude\r\nurn:x:1,"Calle ""Mayor"", 3",,40,-3.8,43.46\r\n')
  })

  it('defuses spreadsheet formulas and keeps line breaks inside quotes', () => {
    const csv = featuresToCsv(
      [feature('1', { name: '=HYPERLINK("http://evil")', note: '+1', other: '-2', at: '@SUM(A1)', text: 'two\nlines' })],
      ['name', 'note', 'other', 'at', 'text'],
    )
    const row = csv.split('\r\n')[1]
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(row).toContain(",'+1,'-2,'@SUM(A1),")
    expect(row).toContain('"two\nlines"')
  })

  it('keeps negative numbers as numbers', () => {
    expect(featuresToCsv([feature('1', { t: -4.5 })], ['t']).split('\r\n')[1]).toBe('1,1,,-4.5,-3.8,43.46')
  })
})

describe('display helpers', () => {
  it('says how long ago a value was observed', () => {
    const now = Date.parse('2026-11-23T10:00:00Z')
    expect(observedAgo('2026-11-23T09:55:00Z', now)).toBe('5 minutes ago')
    expect(observedAgo('2026-11-23T07:00:00Z', now)).toBe('3 hours ago')
    expect(observedAgo('2026-11-21T10:00:00Z', now)).toBe('2 days ago')
    expect(observedAgo('2026-11-23T09:59:58Z', now)).toBe('2 seconds ago')
    expect(observedAgo('2026-11-23T10:00:02Z', now)).toBe('now')
    expect(observedAgo('2026-11-23T10:00:02Z', now, 'pt')).toBe('agora')
    expect(observedAgo('2026-11-23T09:59:58Z', now, 'pt')).toBe('há 2 segundos')
    expect(observedAgo('not a date', now)).toBeUndefined()
    expect(observedAgo(undefined, now)).toBeUndefined()
  })
})

describe('alertsOf', () => {
  it('lists the alerts features carry, most severe first, ignoring malformed ones', () => {
    const alerts = alertsOf([
      feature('a', { name: 'A', alert: { level: 'warning', message: 'PM10 high' } }),
      feature('b', { name: 'B', alert: { level: 'critical', message: 'NO2 high' } }),
      feature('c', { alert: { level: 'bogus', message: 'x' } }),
      feature('d', { alert: 'critical' }),
      feature('e', {}),
    ])
    expect(alerts).toEqual([
      { featureId: 'b', level: 'critical', message: 'NO2 high', name: 'B' },
      { featureId: 'a', level: 'warning', message: 'PM10 high', name: 'A' },
    ])
  })
})

describe('previewOf', () => {
  const alerting = [
    feature('w', { name: 'Warm', alert: { level: 'warning', message: 'warm' } }),
    feature('x', { name: 'Bad', alert: { level: 'nonsense', message: 'ignored' } }),
    feature('e', { name: 'Hot', alert: { level: 'critical', message: 'hot' } }),
    feature('i', { name: 'Note', alert: { level: 'info', message: 'fyi' } }),
  ]
  const all = [...stations, ...alerting]

  it('carries the first rows in the layer order, the alerting features most severe first, and the asked statistics', () => {
    const preview = previewOf(all, {
      headSize: 3,
      statistics: [{ statistic: 'count' }, { statistic: 'max', attribute: 'no2' }, { statistic: 'average', attribute: 'missing' }],
      alertLimit: 10,
    })
    expect(preview.total).toBe(8)
    expect(preview.head.map((item) => item.id)).toEqual(['a', 'b', 'c'])
    expect(preview.alerting.map((item) => item.id)).toEqual(['e', 'w', 'i'])
    expect(preview.statistics).toEqual({ [statisticKey('count')]: 8, [statisticKey('max', 'no2')]: 215.5, [statisticKey('average', 'missing')]: null })
    expect(preview.holders).toEqual({ [statisticKey('max', 'no2')]: 'Puerto' })
  })

  it('keeps the most severe alerts when there are more than the limit, and no rows when no table asks', () => {
    const preview = previewOf(all, { headSize: 0, statistics: [], alertLimit: 1 })
    expect(preview.head).toEqual([])
    expect(preview.alerting.map((item) => item.id)).toEqual(['e'])
    expect(preview.statistics).toEqual({})
  })

  it('agrees with computeStatistic on the whole set (what the browser shows once it has loaded)', () => {
    const preview = previewOf(all, { headSize: 1, statistics: [{ statistic: 'average', attribute: 'pm10' }], alertLimit: 5 })
    expect(preview.statistics[statisticKey('average', 'pm10')]).toBe(computeStatistic(all, 'average', 'pm10'))
  })
})

describe('extremeHolder', () => {
  it('finds the feature holding a min or max, the first on a tie, skipping non-numbers', () => {
    expect(extremeHolder(stations, 'max', 'no2')?.id).toBe('b')
    expect(extremeHolder(stations, 'min', 'no2')?.id).toBe('d')
    expect(extremeHolder([...stations, feature('z', { no2: 215.5 })], 'max', 'no2')?.id).toBe('b')
    expect(extremeHolder(stations, 'min', 'name')).toBeUndefined()
  })

  it('has nothing to say for counts, sums and averages', () => {
    expect(extremeHolder(stations, 'average', 'no2')).toBeUndefined()
    expect(extremeHolder(stations, 'count')).toBeUndefined()
  })

  it('names a feature by its name, else its id; markup stays text', () => {
    expect(featureName(feature('q', { name: '<img src=x onerror=alert(1)>' }))).toBe('<img src=x onerror=alert(1)>')
    expect(featureName(feature('q', { name: 42 }))).toBe('q')
  })
})

describe('CSV with the layer’s labels', () => {
  it('heads columns with labels and units, and gives every row the place and its observation time, values unformatted', () => {
    const presentation = createPresentation({
      attributes: [
        { attribute: 'no2', label: 'NO₂', unit: 'µg/m³' },
        { attribute: 'batteryLevel', label: 'Batería', format: 'percent' },
        { attribute: 'name', label: 'Estación' },
      ],
      locale: 'es',
      timeZone: 'Europe/Madrid',
    })
    const columns = ['name', 'no2', 'batteryLevel', 'airQualityLevel']
    const csv =
      csvHeader(columns, presentation) +
      csvRows([feature('urn:x:1', { name: 'Centro', observedAt: '2026-11-19T13:40:00Z', no2: 41.25, batteryLevel: 0.08, airQualityLevel: 'good' })], columns)
    expect(csv).toBe(
      'id,Estación,Observed at,NO₂ (µg/m³),Batería,Air quality level,longitude,latitude\r\n' + 'urn:x:1,Centro,2026-11-19T13:40:00Z,41.25,0.08,good,-3.8,43.46\r\n',
    )
  })
})
