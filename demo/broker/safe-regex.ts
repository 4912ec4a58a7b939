// User-supplied patterns (q `~=`, idPattern) run against every entity on the event loop,
// and a JavaScript regex cannot be interrupted: refuse the shapes that backtrack
// catastrophically instead of trusting them. A quantified group may hold neither a
// quantifier nor an alternation ((a+)+, ((a*))*, (a|a)*), and a pattern may hold only a few
// variable-length quantifiers (.*.*.*.*.*x is polynomial, but steep on 50,000 ids).

const MAX_PATTERN_LENGTH = 256
const MAX_VARIABLE_QUANTIFIERS = 4
const QUANTIFIER = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/
const GROUP_PREFIX = /^\?(?::|=|!|<=|<!|<[A-Za-z_]\w*>)/

interface Group {
  /** Holds a variable quantifier or an alternation, at any depth. */
  ambiguous: boolean
}

/** Compiles a pattern (Java-style leading `(?i)` allowed) or throws with a readable reason. */
export function compileSafeRegex(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`pattern longer than ${MAX_PATTERN_LENGTH} characters`)
  let source = pattern
  let flags = ''
  if (source.startsWith('(?i)')) {
    source = source.slice(4)
    flags = 'i'
  }
  assertLinearEnough(source)
  return new RegExp(source, flags)
}

function assertLinearEnough(source: string): void {
  const groups: Group[] = [{ ambiguous: false }]
  /** The group that just closed, when the next token could quantify it. */
  let closed: Group | undefined
  let variableQuantifiers = 0
  let i = 0
  while (i < source.length) {
    const char = source[i]
    const quantifier = QUANTIFIER.exec(source.slice(i, i + 24))
    if (quantifier && i > 0) {
      const [, symbol, min, comma, max] = quantifier
      const repeats = symbol === '*' || symbol === '+' || (min !== undefined && (comma !== undefined ? max === '' || Number(max) > 1 : Number(min) > 1))
      const variable = symbol !== undefined || (comma !== undefined && max !== min)
      if (closed?.ambiguous && repeats) throw new Error('nested quantifiers or a repeated alternation are not allowed')
      if (variable) {
        groups[groups.length - 1].ambiguous = true
        if (++variableQuantifiers > MAX_VARIABLE_QUANTIFIERS) throw new Error(`more than ${MAX_VARIABLE_QUANTIFIERS} variable quantifiers`)
      }
      closed = undefined
      i += quantifier[0].length
      continue
    }
    closed = undefined
    if (char === '\\') {
      if (/[1-9k]/.test(source[i + 1] ?? '')) throw new Error('back-references are not allowed')
      i += 2
    } else if (char === '[') {
      i = classEnd(source, i)
    } else if (char === '(') {
      groups.push({ ambiguous: false })
      i += 1 + (GROUP_PREFIX.exec(source.slice(i + 1, i + 40))?.[0].length ?? 0)
    } else if (char === ')' && groups.length > 1) {
      closed = groups.pop()!
      if (closed.ambiguous) groups[groups.length - 1].ambiguous = true
      i++
    } else {
      if (char === '|') groups[groups.length - 1].ambiguous = true
      i++
    }
  }
}

/** Index just past the character class starting at `start` (a leading ']' is literal). */
function classEnd(source: string, start: number): number {
  let i = start + 1
  if (source[i] === '^') i++
  if (source[i] === ']') i++
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1
  return i + 1
}
