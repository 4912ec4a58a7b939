import { describe, expect, it } from 'vitest'

import { MIN_DISTINCT_CHARACTERS, MIN_PASSWORD_LENGTH, passwordProblem } from '@/accounts/shared/password'

describe('passwordProblem', () => {
  it.each([
    'correct-horse-battery-staple',
    'Race-passphrase-2026',
    'mississippi river 1',
    // Spaces inside count: only the ends are trimmed.
    'twelve chars',
    // Runs of consecutive characters inside a longer password are fine.
    'my 123456 bicycle',
    'Grüße aus Köln',
  ])('accepts %j', (password) => {
    expect(passwordProblem(password)).toBeUndefined()
  })

  it.each([' '.repeat(12), ' '.repeat(40), '\t\n \u00a0'.repeat(4)])('refuses a password of spaces only (%j)', (password) => {
    expect(passwordProblem(password)).toBe('A password cannot be made of spaces only')
  })

  it.each(['abc', 'short-pass', '   eleven-ch   ', 'αβγδεζηθικλ'])('refuses %j: fewer than 12 characters once trimmed', (password) => {
    expect(passwordProblem(password)).toBe(`Use at least ${MIN_PASSWORD_LENGTH} characters, not counting spaces at the start or end`)
  })

  it('counts characters, not UTF-16 code units', () => {
    // 11 emoji are 22 code units.
    expect(passwordProblem('🙂'.repeat(11))).toMatch(/at least 12 characters/)
  })

  it.each(['123456789012', '012345678901', '210987654321', '987654321098', 'abcdefghijkl', 'ABCDEFGHIJKLM', 'lkjihgfedcba', 'aBcDeFgHiJkL', '  abcdefghijklmn  '])(
    'refuses the run of consecutive characters %j',
    (password) => {
      expect(passwordProblem(password)).toBe('Do not use a run of consecutive characters such as 123456789012 or abcdefghijkl')
    },
  )

  it.each(['aaaaaaaaaaaa', 'abababababab', '112211221122', 'zzzzzzzzzzzzzzzzzzzzy', '!!!???!!!???'])(`refuses %j: fewer than ${MIN_DISTINCT_CHARACTERS} different characters`, (password) => {
    expect(passwordProblem(password)).toBe(`Use at least ${MIN_DISTINCT_CHARACTERS} different characters`)
  })

  it.each(['abcdabcdabcd', 'wxyzwxyzwxyzwx', 'Kiwi!Kiwi!Kiwi!', 'city-dash-city-dash-'])('refuses %j: one short group repeated', (password) => {
    expect(passwordProblem(password)).toBe('Do not repeat the same group of characters over and over')
  })

  it.each(['password1234', 'qwertyuiop123', 'PASSWORD1234', '  password1234  '])('refuses the breached password %j', (password) => {
    expect(passwordProblem(password)).toBe('This password appears in lists of breached passwords; choose another')
  })

  describe("with the account's email", () => {
    const email = 'Maria.Lopez@city.example'

    it.each(['maria.lopez@city.example', 'maria.lopez!2026', 'My name is MARIA.LOPEZ'])('refuses %j, which contains the email or its name part', (password) => {
      expect(passwordProblem(password, { email })).toBe('Do not use your email address or its name part in your password')
    })

    it('refuses a password equal to a long name part', () => {
      expect(passwordProblem('long.name.part.here', { email: 'long.name.part.here@example.org' })).toMatch(/email address/)
    })

    it('accepts what does not contain it, and ignores name parts too short to mean anything', () => {
      expect(passwordProblem('correct-horse-battery-staple', { email })).toBeUndefined()
      expect(passwordProblem('jolly-horse-battery-staple', { email: 'jo@example.org' })).toBeUndefined()
      expect(passwordProblem('correct-horse-battery-staple', { email: null })).toBeUndefined()
    })
  })
})
