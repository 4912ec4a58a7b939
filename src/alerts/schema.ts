import { z } from 'zod'

import { ALERT_LEVELS } from './levels'

/**
 * Threshold alert rules, as editors write them.
 *
 * | operator              | value                         | valueTo        | fires when the attribute…                          |
 * |-----------------------|-------------------------------|----------------|----------------------------------------------------|
 * | `gt` `gte` `lt` `lte` | number                        | –              | is a number and compares true (> ≥ < ≤)           |
 * | `eq` `ne`             | number or string              | –              | equals / differs (numbers numerically, else text)  |
 * | `between`             | number (low)                  | number (high)  | is a number with low ≤ x ≤ high                    |
 * | `outside`             | number (low)                  | number (high)  | is a number with x < low or x > high               |
 * | `contains`            | non-empty string              | –              | is text containing it, or a list holding it (case-insensitive) |
 * | `missing`             | –                             | –              | is absent, null, empty text or a non-finite number |
 * | `stale`               | minutes (> 0)                 | –              | was observed longer ago than that                  |
 *
 * Fields an operator does not use are dropped on parse, so a form that hides them may leave them set.
 */

/**
 * Operators by name, each with the label editors see: stored select values must be valid
 * GraphQL enum names ([_a-zA-Z0-9]), so `>=` is stored as `gte`.
 */
export const ALERT_OPERATOR_LABELS = {
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  eq: '==',
  ne: '!=',
  between: 'between',
  outside: 'outside',
  contains: 'contains',
  missing: 'missing',
  stale: 'stale',
} as const

export type AlertOperator = keyof typeof ALERT_OPERATOR_LABELS

export const ALERT_OPERATORS = Object.keys(ALERT_OPERATOR_LABELS) as [AlertOperator, ...AlertOperator[]]

export const NUMERIC_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'between', 'outside'] as const satisfies readonly AlertOperator[]

export const MAX_MESSAGE_LENGTH = 200
export const MAX_ATTRIBUTE_LENGTH = 256

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/

const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not contain control characters')

const finiteNumber = z.number().refine(Number.isFinite, 'must be a finite number')

export const alertRuleSchema = z
  .object({
    attribute: plainText(MAX_ATTRIBUTE_LENGTH),
    operator: z.enum(ALERT_OPERATORS),
    value: z.union([finiteNumber, z.string().max(MAX_MESSAGE_LENGTH)]).nullish(),
    valueTo: finiteNumber.nullish(),
    level: z.enum(ALERT_LEVELS),
    message: plainText(MAX_MESSAGE_LENGTH),
  })
  .superRefine((rule, ctx) => {
    const issue = (path: 'value' | 'valueTo', message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    const { operator, value, valueTo } = rule
    const label = ALERT_OPERATOR_LABELS[operator]
    switch (operator) {
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (typeof value !== 'number') issue('value', `a number is required for "${label}"`)
        break
      case 'eq':
      case 'ne':
        if (value === undefined || value === null) issue('value', `a number or text is required for "${label}"`)
        break
      case 'between':
      case 'outside':
        if (typeof value !== 'number') issue('value', `a lower bound is required for "${label}"`)
        if (typeof valueTo !== 'number') issue('valueTo', `an upper bound is required for "${label}"`)
        if (typeof value === 'number' && typeof valueTo === 'number' && value > valueTo) {
          issue('valueTo', 'must not be below the lower bound')
        }
        break
      case 'contains':
        if (typeof value !== 'string' || value.trim() === '') issue('value', 'text is required for "contains"')
        break
      case 'stale':
        if (typeof value !== 'number' || value <= 0) issue('value', 'a number of minutes above 0 is required for "stale"')
        break
      case 'missing':
        break
    }
  })
  .transform((rule): AlertRule => {
    const { attribute, operator, level, message } = rule
    const base = { attribute, operator, level, message }
    switch (operator) {
      case 'between':
      case 'outside':
        return { ...base, value: rule.value as number, valueTo: rule.valueTo as number }
      case 'missing':
        return base
      case 'contains':
        return { ...base, value: (rule.value as string).trim() }
      default:
        return { ...base, value: rule.value as number | string }
    }
  })

/** A validated rule. Evaluation tolerates hand-built rules too: a rule missing what its operator needs never fires. */
export type AlertRule = {
  attribute: string
  operator: AlertOperator
  value?: number | string
  valueTo?: number
  level: (typeof ALERT_LEVELS)[number]
  message: string
}

export const alertRulesSchema = z.array(alertRuleSchema).max(100, 'at most 100 rules')
