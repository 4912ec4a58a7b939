import { createHash } from 'node:crypto'

// Providers that ignore dots in the local part: j.doe@ and jdoe@ are one inbox.
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' }

/**
 * The inbox an address delivers to, for limits that protect a person: lower case, without a
 * `+tag` (sub-addressing, RFC 5233: victim+1@ and victim+2@ reach victim@) and, at providers
 * that ignore them, without dots. Not an identity: accounts and subscriptions keep the address typed.
 */
export function inboxOf(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at <= 0) return address
  let local = address.slice(0, at)
  const domain = address.slice(at + 1)
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  const dotless = DOTLESS_DOMAINS[domain]
  return dotless ? `${local.replaceAll('.', '')}@${dotless}` : `${local}@${domain}`
}

/** An inbox as a budget key (per-inbox mail limits): hashed, so the counters hold no addresses. */
export const inboxKey = (email: string) => createHash('sha256').update(inboxOf(email)).digest('hex').slice(0, 32)
