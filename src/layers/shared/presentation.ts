// How a layer's attributes read to a citizen: their labels, their values (numbers in the reader's
// locale, fractions as percentages, units, labelled enumerated values) and times in the city's
// time zone, from the layer's "How attributes are shown" settings (MapLayers `attributeDisplay`).
// Pure and browser-safe: no Node, Next or Payload imports; the locale and the time zone are
// arguments, never read from a global.

import { dateTimeFormat } from '@/i18n/format'
import { DEFAULT_TIME_ZONE } from '@/i18n/timeZone'

/** How a value is written: a number, a fraction 0–1 shown as a percentage, a whole number, or text as it is. */
export const ATTRIBUTE_FORMATS = ['number', 'percent', 'integer', 'text'] as const
export type AttributeFormat = (typeof ATTRIBUTE_FORMATS)[number]

/** One row of a layer's `attributeDisplay`, as the browser receives it. */
export type AttributeDisplay = {
  attribute: string
  label?: string
  /** Empty: the broker's unitCode symbol (LayerMeta.units). */
  unit?: string
  format?: AttributeFormat
  /** Digits after the decimal separator (0–6); unset: as many as the value's size calls for. */
  decimals?: number
  /** Labels of enumerated values (`unhealthy` → "Mala"). */
  valueLabels?: { value: string; label: string }[]
}

/** Time zone of a city that says none (one home: src/i18n/timeZone.ts). */
export { DEFAULT_TIME_ZONE }

export type PresentationSettings = {
  /** The layer's display settings (none: every attribute humanised, numbers as numbers). */
  attributes?: AttributeDisplay[]
  /** Unit symbol per attribute from the broker's unitCode (LayerMeta.units). */
  units?: Record<string, string>
  /** BCP 47, e.g. 'es', 'pt', 'en'. */
  locale: string
  /** IANA, e.g. 'Europe/Madrid'. */
  timeZone: string
}

export type FormatOptions = {
  /** false: the number alone (the caller shows `unitOf` itself); a percentage keeps its sign. */
  withUnit?: boolean
}

export type Presentation = {
  readonly settings: PresentationSettings
  /** The editor's label, else the name humanised (`airQualityLevel` → "Air quality level"). */
  attributeLabel: (name: string) => string
  /** The label with its unit, for a column header: "NO₂ (µg/m³)". */
  columnLabel: (name: string) => string
  /** The unit shown after the attribute's numbers; undefined for percentages, text and unitless values. */
  unitOf: (name: string) => string | undefined
  /** A value as a citizen reads it; '' when there is none (null, undefined, '', NaN). */
  formatValue: (name: string, value: unknown, options?: FormatOptions) => string
  /** A plain number in the locale (`decimals` fixed, else by size). */
  formatNumber: (value: number, decimals?: number) => string
  /** A time (ISO 8601 or ms since the epoch) in the locale and time zone, e.g. "19 nov 2026, 14:40"; '' when unreadable. */
  formatTime: (time: string | number | null | undefined) => string
  /** The time of day alone, to the second ("14:40:05"), in the time zone; '' when unreadable. */
  formatClock: (time: string | number | null | undefined) => string
}

// Letters then digits, short: a chemical or particle name (no2 → NO2, pm25 → PM25).
const ABBREVIATION = /^[a-z]{1,3}\d+$/

/** `airQualityLevel` → "Air quality level", `no2` → "NO2": a readable stand-in, not a translation. */
export function humanise(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
  if (words.length === 0) return name
  const text = words
    .map((word, index) => {
      if (ABBREVIATION.test(word)) return word.toUpperCase()
      if (/^[A-Z\d]+$/.test(word) && word.length > 1) return word
      return index === 0 ? word : word.toLowerCase()
    })
    .join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

// An enumerated value as the broker sends them: one identifier-like word (good, lowBattery).
const ENUM_LIKE = /^[a-z][a-zA-Z\d]*$/

// Units written without a space after the number (an angle); the others take a no-break space.
const UNSPACED_UNITS = new Set(['°', '′', '″'])

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '')

const NUMERIC_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i

/** The number a value holds: numbers themselves and numeric text ("12.5"); undefined otherwise. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && NUMERIC_TEXT.test(value.trim())) return Number(value.trim())
  return undefined
}

const clampDecimals = (decimals: number | undefined) =>
  decimals === undefined || decimals === null || !Number.isFinite(decimals) ? undefined : Math.min(6, Math.max(0, Math.round(decimals)))

/** What `read` gives, else `fallback` when it throws (an unknown locale or time zone) or gives nothing. */
function knownOr(read: () => string | undefined, fallback: string): string {
  try {
    return read() || fallback
  } catch {
    return fallback
  }
}

/** Fraction digits by size when none are set: 1234 · 12.3 · 1.23. */
const digitsBySize = (value: number) => (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2)

/** Numbers and percentages in one locale, each format made once: digits by size unless decimals are set. */
function numberFormatting(locale: string) {
  const formats = new Map<string, Intl.NumberFormat>()
  const numberFormat = (options: Intl.NumberFormatOptions) => {
    const key = JSON.stringify(options)
    let format = formats.get(key)
    if (!format) {
      format = new Intl.NumberFormat(locale, options)
      formats.set(key, format)
    }
    return format
  }
  const formatNumber = (value: number, decimals?: number) => {
    const fixed = clampDecimals(decimals)
    const digits = fixed ?? digitsBySize(value)
    return numberFormat({ minimumFractionDigits: fixed ?? 0, maximumFractionDigits: digits }).format(value)
  }
  const percent = (fraction: number, decimals?: number) => {
    const fixed = clampDecimals(decimals)
    return numberFormat({ style: 'percent', minimumFractionDigits: fixed ?? 0, maximumFractionDigits: fixed ?? 1 }).format(fraction)
  }
  return { formatNumber, percent }
}

/** Times of day and dates with times, in one locale and time zone ('' for no time). */
function timeFormatting(locale: string, timeZone: string) {
  const msOf = (time: string | number | null | undefined) => (time === null || time === undefined || time === '' ? Number.NaN : typeof time === 'number' ? time : Date.parse(time))
  const formatWith = (options: Intl.DateTimeFormatOptions) => (time: string | number | null | undefined) => {
    const at = msOf(time)
    return Number.isFinite(at) ? dateTimeFormat(locale, { ...options, hourCycle: 'h23', timeZone }).format(at) : ''
  }
  return {
    formatClock: formatWith({ hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    formatTime: formatWith({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }),
  }
}

/** Formatting for one layer's attributes, in one locale and time zone. */
export function createPresentation(settings: PresentationSettings): Presentation {
  const locale = knownOr(() => Intl.getCanonicalLocales(settings.locale)[0], 'es')
  const timeZone = knownOr(() => dateTimeFormat('en', { timeZone: settings.timeZone }).resolvedOptions().timeZone, DEFAULT_TIME_ZONE)
  const byName = new Map((settings.attributes ?? []).map((row) => [row.attribute, row]))
  const units = settings.units ?? {}
  const { formatNumber, percent } = numberFormatting(locale)
  const { formatClock, formatTime } = timeFormatting(locale, timeZone)

  const formatOf = (name: string): AttributeFormat => byName.get(name)?.format ?? 'number'
  const unitOf = (name: string) => {
    const format = formatOf(name)
    if (format === 'percent' || format === 'text') return undefined
    const unit = byName.get(name)?.unit?.trim() || units[name]
    return unit || undefined
  }
  const attributeLabel = (name: string) => byName.get(name)?.label?.trim() || humanise(name)

  const textOf = (name: string, text: string) => {
    const labelled = byName.get(name)?.valueLabels?.find((row) => row.value === text)?.label?.trim()
    if (labelled) return labelled
    return name !== 'name' && ENUM_LIKE.test(text) && /[A-Z]/.test(text) ? humanise(text) : text
  }

  const withUnit = (number: string, unit: string | undefined) => (!unit ? number : UNSPACED_UNITS.has(unit) ? `${number}${unit}` : `${number}\u00a0${unit}`)

  const formatValue = (name: string, value: unknown, options: FormatOptions = {}) => {
    if (isBlank(value)) return ''
    const row = byName.get(name)
    const format = formatOf(name)
    // Enumerated values are labelled whatever their type (a status code may be a number).
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const labelled = row?.valueLabels?.find((entry) => entry.value === String(value))?.label?.trim()
      if (labelled) return labelled
    }
    if (typeof value === 'object') return JSON.stringify(value)
    if (typeof value === 'boolean') return String(value)
    if (format === 'text') return typeof value === 'string' ? textOf(name, value) : String(value)
    const number = numberOf(value)
    if (number === undefined) return typeof value === 'string' ? textOf(name, value) : ''
    if (format === 'percent') return percent(number, row?.decimals)
    const decimals = format === 'integer' ? 0 : row?.decimals
    const unit = options.withUnit === false ? undefined : unitOf(name)
    // A percent unit from the broker (P1) reads as the locale writes percentages ("45 %" in es, "45%" in en).
    if (unit === '%') return percent(number / 100, decimals)
    return withUnit(formatNumber(format === 'integer' ? Math.round(number) : number, decimals), unit)
  }

  const columnLabel = (name: string) => {
    const unit = unitOf(name)
    return unit ? `${attributeLabel(name)} (${unit})` : attributeLabel(name)
  }

  return { settings, attributeLabel, columnLabel, unitOf, formatValue, formatNumber, formatTime, formatClock }
}

type StoredDisplayRow = {
  attribute: string
  label?: string | null
  unit?: string | null
  format?: string | null
  decimals?: number | null
  valueLabels?: { value: string; label?: string | null }[] | null
}

const isFormat = (value: unknown): value is AttributeFormat => typeof value === 'string' && (ATTRIBUTE_FORMATS as readonly string[]).includes(value)

/** A layer's stored `attributeDisplay` rows as the browser receives them: empty parts left out. */
export function attributeDisplayOf(rows: StoredDisplayRow[] | null | undefined): AttributeDisplay[] {
  return (rows ?? []).map((row) => {
    const display: AttributeDisplay = { attribute: row.attribute }
    if (row.label?.trim()) display.label = row.label.trim()
    if (row.unit?.trim()) display.unit = row.unit.trim()
    if (isFormat(row.format) && row.format !== 'number') display.format = row.format
    if (typeof row.decimals === 'number') display.decimals = row.decimals
    const valueLabels = (row.valueLabels ?? []).flatMap(({ value, label }) => (label?.trim() ? [{ value, label: label.trim() }] : []))
    if (valueLabels.length) display.valueLabels = valueLabels
    return display
  })
}
