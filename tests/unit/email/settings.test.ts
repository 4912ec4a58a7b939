import { describe, expect, it } from 'vitest'

import { composeMail, MailHeaderError } from '@/email/server/compose'
import { DEFAULT_MAIL_SEND_RATE, emailSettings, parseSender } from '@/env/smtp'
import { InvalidEnvironmentError, parseEnv } from '@/env'

const valid = { APP_SECRET: 'a'.repeat(32) }

const problemsOf = (source: Record<string, string | undefined>) => {
  try {
    parseEnv({ ...valid, ...source })
    return ''
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError)
    return (error as InvalidEnvironmentError).problems.join('\n')
  }
}

describe('mail settings', () => {
  it('leave email off when no SMTP server is set', () => {
    expect(emailSettings(parseEnv(valid))).toBeUndefined()
    expect(emailSettings(parseEnv({ ...valid, SMTP_URL: '', EMAIL_FROM: '' }))).toBeUndefined()
  })

  it('read SMTP_URL with its account, port and TLS mode', () => {
    const settings = emailSettings(parseEnv({ ...valid, SMTP_URL: 'smtps://mailer:p%40ss@mail.city.example', EMAIL_FROM: 'City of Example <noreply@city.example>' }))
    expect(settings).toEqual({
      transport: { host: 'mail.city.example', port: 465, secure: true, auth: { user: 'mailer', pass: 'p@ss' } },
      from: { name: 'City of Example', address: 'noreply@city.example' },
      sendRate: DEFAULT_MAIL_SEND_RATE,
    })
    expect(emailSettings(parseEnv({ ...valid, SMTP_URL: 'smtp://127.0.0.1:2525', EMAIL_FROM: 'noreply@city.example' }))).toEqual({
      transport: { host: '127.0.0.1', port: 2525, secure: false },
      from: { address: 'noreply@city.example' },
      sendRate: DEFAULT_MAIL_SEND_RATE,
    })
  })

  it('read MAIL_SEND_RATE, the mails per second one process sends at most', () => {
    const settings = emailSettings(parseEnv({ ...valid, SMTP_URL: 'smtp://127.0.0.1:2525', EMAIL_FROM: 'noreply@city.example', MAIL_SEND_RATE: '5' }))
    expect(settings?.sendRate).toBe(5)
  })

  it('read SMTP_HOST, SMTP_PORT, SMTP_USER and SMTP_PASSWORD', () => {
    const settings = emailSettings(
      parseEnv({ ...valid, SMTP_HOST: 'mail.city.example', SMTP_PORT: '587', SMTP_USER: 'u', SMTP_PASSWORD: 'p', EMAIL_FROM: '"Dashboard" <a@city.example>' }),
    )
    expect(settings?.transport).toEqual({ host: 'mail.city.example', port: 587, secure: false, auth: { user: 'u', pass: 'p' } })
    expect(settings?.from).toEqual({ name: 'Dashboard', address: 'a@city.example' })
  })

  it.each([
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL: '],
    [{ SMTP_URL: 'smtp://mail.example' }, 'EMAIL_FROM: required'],
    [{ EMAIL_FROM: 'a@city.example' }, 'EMAIL_FROM: is set but no SMTP server'],
    [{ SMTP_URL: 'smtp://a', SMTP_HOST: 'b', EMAIL_FROM: 'a@city.example' }, 'SMTP_HOST: set either'],
    [{ SMTP_PORT: '25' }, 'SMTP_PORT: needs SMTP_HOST'],
    [{ SMTP_HOST: 'h', SMTP_USER: 'u', EMAIL_FROM: 'a@city.example' }, 'SMTP_PASSWORD: SMTP_USER and SMTP_PASSWORD go together'],
    [{ SMTP_HOST: 'h', SMTP_PORT: '70000', EMAIL_FROM: 'a@city.example' }, 'SMTP_PORT: '],
    [{ SMTP_HOST: 'h', EMAIL_FROM: 'not an address' }, 'EMAIL_FROM: must be an address'],
    [{ SMTP_HOST: 'h', EMAIL_FROM: 'a@city.example', MAIL_SEND_RATE: '0' }, 'MAIL_SEND_RATE: '],
    [{ SMTP_HOST: 'h', EMAIL_FROM: 'a@city.example', MAIL_SEND_RATE: 'fast' }, 'MAIL_SEND_RATE: '],
    [{ SMTP_HOST: 'h', EMAIL_FROM: 'a@city.example', MAIL_SEND_RATE: '2.5' }, 'MAIL_SEND_RATE: '],
    [{ SMTP_HOST: 'h', EMAIL_FROM: 'City\r\nBcc: x@evil.example <a@city.example>' }, 'EMAIL_FROM: must not contain line breaks'],
  ])('refuse %j, naming the setting', (source, message) => {
    expect(problemsOf(source)).toContain(message)
  })

  it('parse senders with and without a display name', () => {
    expect(parseSender('a@city.example')).toEqual({ address: 'a@city.example' })
    expect(parseSender(' City <a@city.example> ')).toEqual({ name: 'City', address: 'a@city.example' })
    expect(parseSender('<a@city.example>')).toEqual({ address: 'a@city.example' })
  })
})

describe('mail composition', () => {
  const sender = { address: 'noreply@city.example' }
  const content = {
    to: 'citizen@example.org',
    subject: 'Your question was answered',
    siteName: 'City of Example',
    blocks: ['Hello <friend> & neighbour', { label: 'Read the answer', url: 'https://city.example/questions#q-1' }],
  }

  it('gives a plain-text part and an HTML part, both signed with the site name, from the site name', () => {
    const mail = composeMail(content, sender)
    expect(mail.from).toEqual({ name: 'City of Example', address: 'noreply@city.example' })
    expect(mail.text).toBe('Hello <friend> & neighbour\n\nRead the answer:\nhttps://city.example/questions#q-1\n\n— City of Example\n')
    expect(mail.html).toContain('<p>Hello &lt;friend&gt; &amp; neighbour</p>')
    expect(mail.html).toContain('<a href="https://city.example/questions#q-1">Read the answer</a>')
    expect(mail.html).toContain('— City of Example')
  })

  it.each([
    ['subject', { subject: 'Hi\r\nBcc: victim@example.org' }],
    ['site name', { siteName: 'City\nBcc: victim@example.org' }],
    ['recipient', { to: 'a@example.org\r\nBcc: victim@example.org' }],
    ['recipient', { to: 'not an address' }],
    ['header', { headers: { 'X-Test': 'a\r\nBcc: victim@example.org' } }],
  ])('refuses header injection through the %s', (_what, change) => {
    expect(() => composeMail({ ...content, ...change }, sender)).toThrow(MailHeaderError)
  })

  it("says the HTML part's language and fits a phone's screen", () => {
    expect(composeMail(content, sender).html).toMatch(/^<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">/)
    expect(composeMail({ ...content, language: 'pt-PT' }, sender).html).toContain('<html lang="pt-PT">')
    expect(() => composeMail({ ...content, language: 'en"><script>' }, sender)).toThrow(/BCP 47/)
  })

  it('links only http(s) URLs', () => {
    expect(() => composeMail({ ...content, blocks: [{ label: 'x', url: 'javascript:alert(1)' }] }, sender)).toThrow(/http\(s\) only/)
  })
})
