import { describe, expect, it } from 'vitest'

import { DEFAULT_TIME_ZONE, isTimeZone } from '@/i18n/timeZone'

describe('isTimeZone (Site settings → Cities → Time zone)', () => {
  it('accepts IANA names the runtime knows', () => {
    for (const zone of [DEFAULT_TIME_ZONE, 'Europe/Lisbon', 'Atlantic/Canary', 'UTC']) expect(isTimeZone(zone)).toBe(true)
  })

  it('refuses anything else', () => {
    for (const value of ['', 'Europe/Atlantis', 'GMT+25', 'Madrid', null, undefined, 42, 'x'.repeat(65)]) expect(isTimeZone(value)).toBe(false)
  })
})
