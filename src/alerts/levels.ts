/** Alert levels, least to most severe, and helpers to order them. */

export const ALERT_LEVELS = ['info', 'warning', 'critical'] as const

export type AlertLevel = (typeof ALERT_LEVELS)[number]

const RANK: Readonly<Record<AlertLevel, number>> = { info: 0, warning: 1, critical: 2 }

export const isAlertLevel = (value: unknown): value is AlertLevel =>
  typeof value === 'string' && Object.hasOwn(RANK, value)

/** 0 for info, 1 for warning, 2 for critical. */
export const levelRank = (level: AlertLevel): number => RANK[level]

/** Ascending comparator (info first): `levels.sort(compareLevels)`. */
export const compareLevels = (a: AlertLevel, b: AlertLevel): number => RANK[a] - RANK[b]

/** Descending comparator (critical first), the order a dashboard lists alerts in. */
export const bySeverity = (a: AlertLevel, b: AlertLevel): number => RANK[b] - RANK[a]

/** True when `level` is `threshold` or more severe. */
export const isAtLeast = (level: AlertLevel, threshold: AlertLevel): boolean => RANK[level] >= RANK[threshold]

/** The most severe of the levels, or undefined for none. */
export function maxLevel(levels: Iterable<AlertLevel>): AlertLevel | undefined {
  let highest: AlertLevel | undefined
  for (const level of levels) {
    if (highest === undefined || RANK[level] > RANK[highest]) highest = level
  }
  return highest
}
