import { bySeverity, isAlertLevel, levelRank, type AlertLevel } from './levels'
import type { AlertRule } from './schema'

/**
 * Pure threshold evaluation: no I/O, no clock unless `now` is omitted, and no throwing on bad data.
 *
 * Properties may be simplified (`{temperature: 21.5}`, NGSI-LD keyValues) or normalized
 * (`{temperature: {type: 'Property', value: 21.5, observedAt: '…'}}`); a normalized property's own
 * `observedAt` takes precedence over the entity-level one for `stale`.
 */

/** The plain value an alert reports: what fired, as text-safe primitives (lists joined). */
export type AlertValue = string | number | boolean | null

export type Alert = {
  level: AlertLevel
  /** The rule's message with `{value}` and `{attribute}` filled in: plain text, render it as text. */
  message: string
  attribute: string
  /** The attribute's value; null for `missing`; the observation time for `stale`. */
  value: AlertValue
}

export type FeatureAlert = Alert & { featureId: string | null }

export type EvaluateOptions = {
  /** Reference time for `stale`; defaults to the current time. */
  now?: Date
  /** When the properties were observed (ISO 8601), for `stale`. */
  observedAt?: string
}

export type AlertFeature = {
  id?: string | number | null
  properties?: Record<string, unknown> | null
  /** Observation time of the whole feature; else `properties.observedAt` when it is text. */
  observedAt?: string
}

/** Longest value text put into a message. */
const MAX_VALUE_TEXT = 100

type Reading = { present: boolean; value: unknown; observedAt?: string }

function read(properties: unknown, attribute: string): Reading {
  if (typeof properties !== 'object' || properties === null || typeof attribute !== 'string') {
    return { present: false, value: undefined }
  }
  // Own properties only: "constructor" or "__proto__" must not resolve to Object internals.
  if (!Object.hasOwn(properties, attribute)) return { present: false, value: undefined }
  const raw = (properties as Record<string, unknown>)[attribute]
  if (isNormalizedProperty(raw)) {
    return {
      present: true,
      value: raw.value,
      observedAt: typeof raw.observedAt === 'string' ? raw.observedAt : undefined,
    }
  }
  return { present: true, value: raw }
}

function isNormalizedProperty(raw: unknown): raw is { type: 'Property'; value: unknown; observedAt?: unknown } {
  return (
    typeof raw === 'object' &&
    raw !== null &&
    !Array.isArray(raw) &&
    (raw as { type?: unknown }).type === 'Property' &&
    Object.hasOwn(raw, 'value')
  )
}

const NUMERIC_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i

/** A finite number, from a number or numeric text ("21.5"); anything else is not a number. */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string') {
    const text = value.trim()
    if (!NUMERIC_TEXT.test(text)) return undefined
    const number = Number(text)
    return Number.isFinite(number) ? number : undefined
  }
  return undefined
}

function isMissing(reading: Reading): boolean {
  const { present, value } = reading
  if (!present || value === undefined || value === null) return true
  if (typeof value === 'string') return value.trim() === ''
  if (typeof value === 'number') return !Number.isFinite(value)
  return false
}

/** Text form of a primitive for comparison; objects and non-finite numbers have none. */
function comparableText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined
  if (typeof value === 'boolean') return String(value)
  return undefined
}

function equals(actual: unknown, expected: number | string): boolean | undefined {
  if (typeof expected === 'number') {
    const number = toFiniteNumber(actual)
    return number === undefined ? undefined : number === expected
  }
  const text = comparableText(actual)
  return text === undefined ? undefined : text === expected
}

function contains(actual: unknown, needle: string): boolean {
  const wanted = needle.trim().toLowerCase()
  if (wanted === '') return false
  if (typeof actual === 'string') return actual.toLowerCase().includes(wanted)
  if (Array.isArray(actual)) return actual.some((item) => comparableText(item)?.toLowerCase() === wanted)
  return false
}

function isStale(observedAt: string | undefined, minutes: unknown, now: Date | undefined): boolean {
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0 || observedAt === undefined) return false
  const observed = Date.parse(observedAt)
  const reference = (now ?? new Date()).getTime()
  if (!Number.isFinite(observed) || !Number.isFinite(reference)) return false
  return reference - observed > minutes * 60_000
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** Whether one rule fires, and on which reported value. */
function fires(rule: AlertRule, reading: Reading, options: EvaluateOptions): { value: AlertValue } | undefined {
  const { operator, value: expected, valueTo } = rule
  switch (operator) {
    case 'missing':
      return isMissing(reading) ? { value: null } : undefined
    case 'stale': {
      const observedAt = reading.observedAt ?? options.observedAt
      return isStale(observedAt, expected, options.now) ? { value: observedAt ?? null } : undefined
    }
    case 'contains':
      return typeof expected === 'string' && contains(reading.value, expected) ? { value: toAlertValue(reading.value) } : undefined
    case 'eq':
    case 'ne': {
      if (!reading.present || (typeof expected !== 'number' && typeof expected !== 'string')) return undefined
      if (typeof expected === 'number' && !Number.isFinite(expected)) return undefined
      const same = equals(reading.value, expected)
      if (same === undefined) return undefined
      return same === (operator === 'eq') ? { value: toAlertValue(reading.value) } : undefined
    }
    default: {
      const actual = toFiniteNumber(reading.present ? reading.value : undefined)
      if (actual === undefined || !finite(expected)) return undefined
      let hit: boolean
      switch (operator) {
        case 'gt':
          hit = actual > expected
          break
        case 'gte':
          hit = actual >= expected
          break
        case 'lt':
          hit = actual < expected
          break
        case 'lte':
          hit = actual <= expected
          break
        case 'between':
          hit = finite(valueTo) && actual >= expected && actual <= valueTo
          break
        case 'outside':
          hit = finite(valueTo) && (actual < expected || actual > valueTo)
          break
        default:
          hit = false
      }
      return hit ? { value: actual } : undefined
    }
  }
}

/** The reported form of a value: primitives as they are, lists of primitives joined, anything else null. */
function toAlertValue(value: unknown): AlertValue {
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (Array.isArray(value)) {
    const parts = value.map(comparableText).filter((part): part is string => part !== undefined)
    return parts.join(', ')
  }
  return null
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g

/** Plain text for a placeholder: control characters become spaces, long text is cut. */
export function valueText(value: AlertValue): string {
  if (value === null) return ''
  const text = String(value).replace(CONTROL_CHARACTERS, ' ')
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text
}

/**
 * Fills `{value}` and `{attribute}` in one pass, so text inside a value is never expanded again.
 * The result is plain text: nothing is escaped because nothing may be rendered as HTML.
 */
export function fillTemplate(template: string, attribute: string, value: AlertValue): string {
  return template.replace(/\{(value|attribute)\}/g, (_match, name: string) =>
    name === 'value' ? valueText(value) : valueText(attribute),
  )
}

/**
 * The most severe alert the rules raise for these properties, or null.
 * Among rules of the same level the first listed wins. Malformed rules and values never fire.
 */
export function evaluateRules(
  rules: readonly AlertRule[],
  properties: Record<string, unknown> | null | undefined,
  options: EvaluateOptions = {},
): Alert | null {
  return firingRule(rules, properties, options)?.alert ?? null
}

/** As `evaluateRules`, with the rule that fired: alert notices are counted per rule and place. */
export function firingRule(
  rules: readonly AlertRule[],
  properties: Record<string, unknown> | null | undefined,
  options: EvaluateOptions = {},
): { rule: AlertRule; alert: Alert } | null {
  let best: { rule: AlertRule; value: AlertValue } | undefined
  if (!Array.isArray(rules)) return null
  for (const rule of rules) {
    if (typeof rule !== 'object' || rule === null || !isAlertLevel(rule.level)) continue
    if (best && levelRank(rule.level) <= levelRank(best.rule.level)) continue
    const hit = fires(rule, read(properties, rule.attribute), options)
    if (hit) best = { rule, value: hit.value }
  }
  if (!best) return null
  const { rule, value } = best
  const message = typeof rule.message === 'string' ? rule.message : ''
  return { rule, alert: { level: rule.level, message: fillTemplate(message, rule.attribute, value), attribute: rule.attribute, value } }
}

const collator = new Intl.Collator('en', { numeric: true })

/**
 * One alert per feature that raises any, most severe first, then by feature id (natural order);
 * features without an id come last.
 */
export function evaluateFeatures(
  rules: readonly AlertRule[],
  features: Iterable<AlertFeature>,
  options: Pick<EvaluateOptions, 'now'> = {},
): FeatureAlert[] {
  const alerts: FeatureAlert[] = []
  for (const feature of features) {
    if (typeof feature !== 'object' || feature === null) continue
    const properties = typeof feature.properties === 'object' ? feature.properties : null
    const observedAt =
      typeof feature.observedAt === 'string'
        ? feature.observedAt
        : typeof properties?.observedAt === 'string'
          ? properties.observedAt
          : undefined
    const alert = evaluateRules(rules, properties, { now: options.now, observedAt })
    if (!alert) continue
    const id = feature.id ?? properties?.id
    const featureId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : null
    alerts.push({ featureId, ...alert })
  }
  return alerts.sort((a, b) => {
    const byLevel = bySeverity(a.level, b.level)
    if (byLevel !== 0) return byLevel
    if (a.featureId === b.featureId) return 0
    if (a.featureId === null) return 1
    if (b.featureId === null) return -1
    return collator.compare(a.featureId, b.featureId)
  })
}
