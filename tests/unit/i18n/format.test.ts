import { describe, expect, it } from 'vitest'

import { fileName } from '@/components/dashboard/download'
import { dateTimeFormat, formatClock, formatDateTimeWithZone, formatDayTime, formatHour } from '@/i18n/format'

const AT = '2026-11-26T14:05:09Z'

describe('times in the reader’s locale', () => {
  it('says a time of day to the second in each locale, in the zone given', () => {
    expect(formatClock(AT, 'es', 'UTC')).toBe('14:05:09')
    expect(formatClock(AT, 'pt', 'UTC')).toBe('14:05:09')
    expect(formatClock(AT, 'en', 'UTC')).toMatch(/^02:05:09\sPM$/)
    expect(formatClock(AT, 'es', 'Europe/Madrid')).toBe('15:05:09')
    expect(formatClock(Date.parse(AT), 'pt', 'Europe/Lisbon')).toBe('14:05:09')
  })

  it('says a day and time for charts and tables', () => {
    expect(formatDayTime(AT, 'es', 'UTC')).toMatch(/^26 nov,? 14:05$/)
    expect(formatDayTime(AT, 'pt', 'UTC')).toMatch(/^26\/11,? 14:05$|^26 de nov\.?,? 14:05$/)
    expect(formatDayTime(AT, 'en', 'UTC')).toMatch(/^Nov 26, 02:05\sPM$/)
  })

  it('says an observation’s date, time and zone', () => {
    expect(formatDateTimeWithZone(AT, 'es', 'UTC')).toMatch(/^26 nov 2026,? 14:05 UTC$/)
    expect(formatDateTimeWithZone(AT, 'en', 'UTC')).toMatch(/^Nov 26, 2026,? 02:05\sPM UTC$/)
  })

  it('says the hours of the day as the locale writes them', () => {
    expect(formatHour(0, 'es')).toBe('00:00')
    expect(formatHour(22, 'pt')).toBe('22:00')
    expect(formatHour(7, 'en')).toMatch(/^07:00\sAM$/)
  })
})

describe('formats made once and kept', () => {
  it('formats each locale and zone as its own, however many are asked for', () => {
    const zones = Intl.supportedValuesOf('timeZone').slice(0, 150)
    for (const round of [1, 2]) {
      for (const zone of zones) {
        for (const locale of ['es', 'en']) {
          const expected = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: zone }).format(Date.parse(AT))
          expect(formatClock(AT, locale, zone), `${locale} ${zone}, round ${round}`).toBe(expected)
        }
      }
    }
  })

  it('refuses an unknown time zone every time it is asked, not only the first', () => {
    expect(() => formatClock(AT, 'es', 'Mars/Olympus_Mons')).toThrow(RangeError)
    expect(() => formatClock(AT, 'es', 'Mars/Olympus_Mons')).toThrow(RangeError)
    expect(() => dateTimeFormat('es', { timeZone: 'Mars/Olympus_Mons' })).toThrow(RangeError)
  })
})

describe('file names from titles', () => {
  it('keeps the letters of Spanish and Portuguese titles, without their accents', () => {
    expect(fileName('Estações de medição')).toBe('estacoes-de-medicao')
    expect(fileName('Calidad del aire — Año 2026')).toBe('calidad-del-aire-ano-2026')
    expect(fileName('***')).toBe('data')
  })
})
