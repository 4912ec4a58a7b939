import { describe, expect, it } from 'vitest'

import { type AlertRule, firingRule } from '@/alerts'
import { isQuiet, noticesFor, placeKey, quietHoursEnd, quietHoursSchema, ruleKey } from '@/alerts/notices'

const no2: AlertRule = { attribute: 'no2', operator: 'gt', value: 200, level: 'critical', message: 'NO2 at {value}' }
const pm10: AlertRule = { attribute: 'pm10', operator: 'gt', value: 50, level: 'warning', message: 'PM10 at {value}' }

describe('which rule fired', () => {
  it('names the most severe rule that fires, with its alert', () => {
    expect(firingRule([pm10, no2], { no2: 210, pm10: 60 })).toEqual({
      rule: no2,
      alert: { level: 'critical', message: 'NO2 at 210', attribute: 'no2', value: 210 },
    })
    expect(firingRule([pm10, no2], { no2: 20, pm10: 60 })?.rule).toBe(pm10)
    expect(firingRule([pm10, no2], { no2: 20, pm10: 6 })).toBeNull()
  })
})

describe('rule and place keys', () => {
  it('keeps a rule the same through a new message, and tells conditions and levels apart', () => {
    expect(ruleKey({ ...no2, message: 'other words' } as AlertRule)).toBe(ruleKey(no2))
    expect(ruleKey({ ...no2, value: 201 })).not.toBe(ruleKey(no2))
    expect(ruleKey({ ...no2, level: 'warning' })).not.toBe(ruleKey(no2))
    expect(ruleKey({ ...no2, attribute: 'pm10' })).not.toBe(ruleKey(no2))
    expect(ruleKey(no2)).toMatch(/^[0-9a-f]{16}$/)
  })

  it('keys a place by layer, city, rule and feature', () => {
    const key = placeKey('7', 'porto', no2, 'urn:a')
    expect(placeKey('7', 'santander', no2, 'urn:a')).not.toBe(key)
    expect(placeKey('8', 'porto', no2, 'urn:a')).not.toBe(key)
    expect(placeKey('7', 'porto', no2, 'urn:b')).not.toBe(key)
    expect(placeKey('7', 'porto', pm10, 'urn:a')).not.toBe(key)
  })

  it('gives a subscriber its level and above', () => {
    const notices = [{ level: 'info' as const }, { level: 'warning' as const }, { level: 'critical' as const }]
    expect(noticesFor(notices, 'warning').map((notice) => notice.level)).toEqual(['warning', 'critical'])
    expect(noticesFor(notices, 'critical')).toHaveLength(1)
    expect(noticesFor(notices, 'info')).toHaveLength(3)
  })
})

describe('quiet hours', () => {
  const night = quietHoursSchema.parse({ from: 22, until: 7, timeZone: 'Europe/Madrid' })

  it('holds the night in the subscriber’s time zone (Madrid is UTC+1 in winter)', () => {
    expect(isQuiet(new Date('2026-11-26T21:30:00Z'), night)).toBe(true) // 22:30 in Madrid
    expect(isQuiet(new Date('2026-11-26T20:59:00Z'), night)).toBe(false) // 21:59
    expect(isQuiet(new Date('2026-11-27T05:59:00Z'), night)).toBe(true) // 06:59
    expect(isQuiet(new Date('2026-11-27T06:00:00Z'), night)).toBe(false) // 07:00
  })

  it('ends them at the until hour, local time, the next morning when needed', () => {
    expect(quietHoursEnd(new Date('2026-11-26T21:30:00Z'), night).toISOString()).toBe('2026-11-27T06:00:00.000Z')
    expect(quietHoursEnd(new Date('2026-11-27T03:10:20Z'), night).toISOString()).toBe('2026-11-27T06:00:00.000Z')
  })

  it('handles hours within one day', () => {
    const lunch = quietHoursSchema.parse({ from: 12, until: 14, timeZone: 'UTC' })
    expect(isQuiet(new Date('2026-11-26T12:00:00Z'), lunch)).toBe(true)
    expect(isQuiet(new Date('2026-11-26T14:00:00Z'), lunch)).toBe(false)
    expect(quietHoursEnd(new Date('2026-11-26T13:15:00Z'), lunch).toISOString()).toBe('2026-11-26T14:00:00.000Z')
  })

  it('refuses unknown time zones, equal hours and hours out of range', () => {
    expect(quietHoursSchema.safeParse({ from: 22, until: 7, timeZone: 'Mars/Olympus' }).success).toBe(false)
    expect(quietHoursSchema.safeParse({ from: 7, until: 7, timeZone: 'UTC' }).success).toBe(false)
    expect(quietHoursSchema.safeParse({ from: 24, until: 7, timeZone: 'UTC' }).success).toBe(false)
    expect(quietHoursSchema.safeParse({ from: 22, until: 7, timeZone: 'UTC\r\nBcc: x' }).success).toBe(false)
  })
})
