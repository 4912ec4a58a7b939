import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * NIST SP 800-63B 5.1.1.2: a length floor and a blocklist (breached passwords, repetitive or
 * sequential characters, context-specific words); no composition rules.
 */
export const MIN_PASSWORD_LENGTH = 12

/**
 * Below four different characters a 12-character password is a pattern ('aaaaaaaaaaaa',
 * 'abababababab', '112211221122'): at most 3^12 ≈ 531,000 strings per choice of symbols, an
 * instant search. Four is where ordinary words begin ('mississippi' has four), so a higher floor
 * would start refusing real phrases; a group of four or more written over and over
 * ('abcdabcdabcd') is refused as a repeat instead.
 */
export const MIN_DISTINCT_CHARACTERS = 4

/** Shorter email local parts ('jo', 'ann') are too common inside unrelated words to refuse. */
const MIN_CONTEXT_WORD_LENGTH = 4

// ~49 000 passwords from public breaches, as zxcvbn-ts keeps them (lower case).
const breached = new Set(dictionary['passwords-common'] as string[])

/** What is known about the account the password is for. */
export type PasswordContext = { email?: string | null }

/** Each code point one step up (or each one down) from the last; digits wrap, so 9 is followed by 0. */
function isSequence(characters: string[]): boolean {
  const codes = characters.map((character) => character.toLowerCase().codePointAt(0)!)
  const isDigit = (code: number) => code >= 48 && code <= 57
  const steps = codes.slice(1).map((code, index) => {
    const previous = codes[index]
    const step = code - previous
    if (isDigit(code) && isDigit(previous) && Math.abs(step) === 9) return -Math.sign(step)
    return step
  })
  return steps.every((step) => step === 1) || steps.every((step) => step === -1)
}

/** The whole password is one shorter piece written again and again ('abcdabcdabcd', 'passpasspass'). */
function isRepeatedPiece(characters: string[]): boolean {
  for (let period = 1; period <= characters.length / 2; period++) {
    if (characters.every((character, index) => index < period || character === characters[index - period])) return true
  }
  return false
}

const emailLocalPart = (email: string | null | undefined) => (email ?? '').trim().toLowerCase().replace(/@[^@]*$/, '')

/** Why a new password is refused, or undefined when it is acceptable. Spaces at either end count for nothing. */
export function passwordProblem(password: string, context: PasswordContext = {}): string | undefined {
  const trimmed = password.trim()
  if (trimmed === '') return 'A password cannot be made of spaces only'
  const characters = [...trimmed]
  if (characters.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters, not counting spaces at the start or end`
  const lowerCase = trimmed.toLowerCase()
  const localPart = emailLocalPart(context.email)
  if (localPart.length >= MIN_CONTEXT_WORD_LENGTH && lowerCase.includes(localPart)) return 'Do not use your email address or its name part in your password'
  if (isSequence(characters)) return 'Do not use a run of consecutive characters such as 123456789012 or abcdefghijkl'
  if (new Set(characters).size < MIN_DISTINCT_CHARACTERS) return `Use at least ${MIN_DISTINCT_CHARACTERS} different characters`
  if (isRepeatedPiece(characters)) return 'Do not repeat the same group of characters over and over'
  if (breached.has(lowerCase)) return 'This password appears in lists of breached passwords; choose another'
  return undefined
}
