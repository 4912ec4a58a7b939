import { dictionary } from '@zxcvbn-ts/language-common'

/** NIST SP 800-63B: a length floor and a blocklist of breached passwords; no composition rules. */
export const MIN_PASSWORD_LENGTH = 12

// ~49 000 passwords from public breaches, as zxcvbn-ts keeps them (lower case).
const breached = new Set(dictionary['passwords-common'] as string[])

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters`
  if (breached.has(password.toLowerCase())) return 'This password appears in lists of breached passwords; choose another'
  return undefined
}
