import { z } from 'zod'

import { dateTimeFormat } from '@/i18n/format'
import { isTimeZone } from '@/i18n/timeZone'

import type { AlertValue } from './engine'
import { isAtLeast, type AlertLevel } from './levels'
import type { AlertRule } from './schema'

/**
 * Alert notices by email, the pure part: which (rule, place) an alert is, quiet hours in the
 * subscriber's time zone, and the text of a notice. No I/O, no clock unless given.
 */

/** An alert that fired on one feature of a fresh load, with the rule that raised it. */
export type FiredAlert = {
  featureId: string
  /** The feature's `name` property when it has one: what a reader calls the place. */
  placeName?: string
  rule: AlertRule
  level: AlertLevel
  message: string
  value: AlertValue
}

/** The alerts of one fresh load of a layer for one city (tenant), as the feature service saw them. */
export type FreshAlerts = {
  layerId: string
  /** The NGSI-LD tenant read; '' for the broker's default. */
  city: string
  fetchedAt: Date
  alerts: FiredAlert[]
}

/** 64 bits of FNV-1a as hex: a short, stable name for a rule (no crypto: this module is bundled anywhere). */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte)
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, '0')
}

/**
 * What makes a rule the same rule: its condition and level, not its message or its position, so
 * rewording a message or reordering rules does not count as a new alert.
 */
export const ruleKey = (rule: Pick<AlertRule, 'attribute' | 'operator' | 'value' | 'valueTo' | 'level'>): string =>
  fnv1a64(JSON.stringify([rule.attribute, rule.operator, rule.value ?? null, rule.valueTo ?? null, rule.level]))

/** One rule at one place of one layer and city: at most one notice per period is sent for it. */
export const placeKey = (layerId: string, city: string, rule: AlertRule, featureId: string): string =>
  `${layerId}|${city}|${ruleKey(rule)}|${featureId}`

/** The alerts a subscriber of `minimumLevel` and above is told about. */
export const noticesFor = <T extends { level: AlertLevel }>(notices: readonly T[], minimumLevel: AlertLevel): T[] =>
  notices.filter((notice) => isAtLeast(notice.level, minimumLevel))

const hour = z.number().int().min(0).max(23)

/** Quiet hours: from `from`:00 until `until`:00 in `timeZone` (may span midnight); equal hours are refused. */
export const quietHoursSchema = z
  .strictObject({
    from: hour,
    until: hour,
    timeZone: z.string().trim().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/Madrid'),
  })
  .refine((quiet) => quiet.from !== quiet.until, { message: 'must start and end at different hours', path: ['until'] })

export type QuietHours = z.infer<typeof quietHoursSchema>

const MINUTES_A_DAY = 24 * 60

/** Minutes since local midnight in `timeZone` at `at`. */
function localMinutes(at: Date, timeZone: string): number {
  const parts = dateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at)
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0)
  return value('hour') * 60 + value('minute')
}

/** Whether `at` falls in the quiet hours (from inclusive, until exclusive). */
export function isQuiet(at: Date, quiet: QuietHours): boolean {
  const now = localMinutes(at, quiet.timeZone)
  const from = quiet.from * 60
  const until = quiet.until * 60
  return from < until ? now >= from && now < until : now >= from || now < until
}

/**
 * When the quiet hours that hold `at` end: the digest goes then. Worked out in local minutes, so a
 * daylight-saving change inside the night moves it by that hour at most.
 */
export function quietHoursEnd(at: Date, quiet: QuietHours): Date {
  const now = localMinutes(at, quiet.timeZone)
  const wait = (((quiet.until * 60 - now) % MINUTES_A_DAY) + MINUTES_A_DAY) % MINUTES_A_DAY || MINUTES_A_DAY
  const end = new Date(at.getTime() + wait * 60_000)
  end.setUTCSeconds(0, 0)
  return end
}
