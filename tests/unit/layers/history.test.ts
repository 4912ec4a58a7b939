import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { alignReadings, createPeriodTotals, HISTORY_WINDOWS, windowBounds } from '@/layers/server/history'
import { NgsiClient } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'

const HOUR = 3_600_000

describe('history windows', () => {
  it('end with the period under way and span the whole window', () => {
    const now = Date.parse('2025-03-10T10:17:00Z')
    expect(windowBounds('day', now)).toEqual({ fromMs: Date.parse('2025-03-09T11:00:00Z'), toMs: Date.parse('2025-03-10T11:00:00Z') })
    expect(windowBounds('hour', now)).toEqual({ fromMs: Date.parse('2025-03-10T09:20:00Z'), toMs: Date.parse('2025-03-10T10:20:00Z') })
    for (const window of ['hour', 'day', 'week', 'month'] as const) {
      const { fromMs, toMs } = windowBounds(window, now)
      expect(toMs - fromMs).toBe(HISTORY_WINDOWS[window].spanMs)
      expect(toMs).toBeGreaterThan(now)
      expect(toMs % HISTORY_WINDOWS[window].periodMs).toBe(0)
    }
  })

  it('start a new period exactly at its boundary', () => {
    const boundary = Date.parse('2025-03-10T11:00:00Z')
    expect(windowBounds('day', boundary).toMs).toBe(boundary + HOUR)
    expect(windowBounds('day', boundary - 1).toMs).toBe(boundary)
  })
})

describe('period totals', () => {
  const from = Date.parse('2025-03-10T00:00:00Z')

  it('average, min and max of raw readings per period; empty periods are null', () => {
    const totals = createPeriodTotals(['no2'], from, HOUR, 3)
    totals.addReading('no2', from + 60_000, 10)
    totals.addReading('no2', from + 120_000, 20)
    totals.addReading('no2', from + 2 * HOUR, 5)
    totals.addReading('no2', from + 2 * HOUR + 1, 'high')
    totals.addReading('no2', from + 3 * HOUR, 1_000)
    totals.addReading('no2', from - 1, 1_000)
    expect(totals.times()).toEqual([from, from + HOUR, from + 2 * HOUR])
    expect(totals.values('no2', 'avg')).toEqual([15, null, 5])
    expect(totals.values('no2', 'min')).toEqual([10, null, 5])
    expect(totals.values('no2', 'max')).toEqual([20, null, 5])
  })

  it("combines entities' aggregates exactly: the average weighs each entity by its readings", () => {
    const totals = createPeriodTotals(['no2'], from, HOUR, 1)
    totals.addPeriod('no2', from, { sum: 30, count: 3, min: 5, max: 15 })
    totals.addPeriod('no2', from, { sum: 50, count: 1, min: 50, max: 50 })
    totals.addPeriod('no2', from, { count: 0 })
    expect(totals.values('no2', 'avg')).toEqual([20])
    expect(totals.values('no2', 'min')).toEqual([5])
    expect(totals.values('no2', 'max')).toEqual([50])
  })
})

describe('aligned readings', () => {
  it('put attributes observed at different times on one axis, non-numbers as gaps', () => {
    const aligned = alignReadings(
      {
        no2: [
          { value: 1, observedAt: '2025-03-10T00:00:00Z' },
          { value: 'n/a', observedAt: '2025-03-10T00:30:00Z' },
        ],
        pm10: [{ value: 7, observedAt: '2025-03-10T00:15:00Z' }],
      },
      ['no2', 'pm10', 'o3'],
    )
    expect(aligned.times).toEqual([Date.parse('2025-03-10T00:00:00Z'), Date.parse('2025-03-10T00:15:00Z'), Date.parse('2025-03-10T00:30:00Z')])
    expect(aligned.values).toEqual({ no2: [1, null, null], pm10: [null, 7, null], o3: [null, null, null] })
  })
})

describe("the demo broker's aggregated temporal representation", () => {
  let broker: DemoBroker
  let client: NgsiClient
  const now = Date.parse('2025-03-10T12:00:00Z')
  const id = 'urn:ngsi-ld:AirQualityObserved:santander-001'

  beforeAll(async () => {
    broker = await startDemoBroker({ port: 0, flavor: 'stellio', now: () => new Date(now) })
    client = new NgsiClient({ brokerUrl: broker.url, tenant: 'santander', retries: 0 })
  })
  afterAll(() => broker.close())

  it('gives [value, start, end] per period from timeAt, matching the raw readings', async () => {
    const window = { attrs: ['no2'], timerel: 'between' as const, timeAt: '2025-03-10T06:00:00Z', endTimeAt: '2025-03-10T12:00:00Z' }
    const raw = (await client.temporal(id, window)).no2
    const aggregated = (await client.temporal(id, { ...window, aggrMethods: ['avg', 'max', 'totalCount'], aggrPeriodDuration: 'PT2H' })).no2
    const starts = ['2025-03-10T06:00:00.000Z', '2025-03-10T08:00:00.000Z', '2025-03-10T10:00:00.000Z']
    for (const start of starts) {
      const inPeriod = raw.filter((point) => Date.parse(point.observedAt) >= Date.parse(start) && Date.parse(point.observedAt) < Date.parse(start) + 2 * HOUR).map((point) => point.value as number)
      const of = (method: string) => aggregated.find((point) => point.method === method && point.observedAt === start)
      expect(of('avg')?.value).toBeCloseTo(inPeriod.reduce((sum, value) => sum + value, 0) / inPeriod.length, 9)
      expect(of('max')?.value).toBe(Math.max(...inPeriod))
      expect(of('totalCount')?.value).toBe(inPeriod.length)
      expect(of('avg')?.endAt).toBe(new Date(Date.parse(start) + 2 * HOUR).toISOString())
    }
    expect(aggregated.filter((point) => point.method === 'avg')).toHaveLength(3)
  })

  it('refuses an unknown method and a period in months', async () => {
    const window = { attrs: ['no2'], timerel: 'after' as const, timeAt: '2025-03-09T12:00:00Z' }
    await expect(client.temporal(id, { ...window, aggrMethods: ['avg'], aggrPeriodDuration: 'P1M' })).rejects.toMatchObject({ status: 501 })
    const response = await fetch(`${broker.url}/ngsi-ld/v1/temporal/entities/${id}?options=aggregatedValues&aggrMethods=median&timerel=after&timeAt=2025-03-09T12:00:00Z`, {
      headers: { 'NGSILD-Tenant': 'santander' },
    })
    expect(response.status).toBe(400)
  })
})
