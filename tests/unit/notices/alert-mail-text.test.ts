import { describe, expect, it } from 'vitest'

import { ALERT_MAIL_TEXT, subjectSafe } from '@/notices/shared/mailText'

describe('alert mail text', () => {
  it('keeps control characters and length out of subjects', () => {
    expect(subjectSafe('Air\r\nBcc: attacker@evil.example')).toBe('Air Bcc: attacker@evil.example')
    expect(subjectSafe('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`)
    expect(ALERT_MAIL_TEXT.notice.subject('critical', 'Air\nquality', 'Santander')).toBe('Critical: Air quality in Santander')
  })

  it('dates each notice in the reader’s time zone', () => {
    const line = { level: 'warning' as const, message: 'PM10 at 61', place: 'Calle Alta', firedAt: '2026-11-26T21:30:00.000Z' }
    expect(ALERT_MAIL_TEXT.line(line, 'Europe/Madrid')).toBe('Warning: PM10 at 61 (Calle Alta, 26 Nov 2026, 22:30 CET)')
    expect(ALERT_MAIL_TEXT.line(line)).toBe('Warning: PM10 at 61 (Calle Alta, 26 Nov 2026, 21:30 UTC)')
  })

  it('counts a digest in its subject', () => {
    expect(ALERT_MAIL_TEXT.digest.subject(1, 'Porto')).toBe('1 alert during your quiet hours in Porto')
    expect(ALERT_MAIL_TEXT.digest.subject(3, 'Porto')).toBe('3 alerts during your quiet hours in Porto')
  })
})
