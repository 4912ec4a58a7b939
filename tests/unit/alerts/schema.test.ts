import { describe, expect, it } from 'vitest'

import {
  ALERT_LEVELS,
  alertRuleSchema,
  alertRulesSchema,
  bySeverity,
  compareLevels,
  isAlertLevel,
  isAtLeast,
  levelRank,
  maxLevel,
  type AlertLevel,
} from '@/alerts'

const base = { attribute: 'temperature', level: 'warning', message: 'hot: {value}' } as const

const issuesOf = (input: unknown) => {
  const result = alertRuleSchema.safeParse(input)
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

describe('alertRuleSchema', () => {
  it.each([
    { operator: 'gt', value: 30 },
    { operator: 'gte', value: -5.5 },
    { operator: 'lt', value: 0 },
    { operator: 'lte', value: 100 },
    { operator: 'eq', value: 1 },
    { operator: 'eq', value: 'closed' },
    { operator: 'ne', value: '' },
    { operator: 'between', value: 1, valueTo: 1 },
    { operator: 'outside', value: -10, valueTo: 40 },
    { operator: 'contains', value: 'flood' },
    { operator: 'missing' },
    { operator: 'stale', value: 30 },
  ])('accepts %j', (fields) => {
    expect(issuesOf({ ...base, ...fields })).toEqual([])
  })

  it.each([
    [{ operator: 'gt' }, 'value'],
    [{ operator: 'gt', value: '30' }, 'value'],
    [{ operator: 'lt', value: Number.NaN }, 'value'],
    [{ operator: 'lt', value: Number.POSITIVE_INFINITY }, 'value'],
    [{ operator: 'eq' }, 'value'],
    [{ operator: 'ne', value: null }, 'value'],
    [{ operator: 'between', value: 1 }, 'valueTo'],
    [{ operator: 'between', valueTo: 1 }, 'value'],
    [{ operator: 'outside', value: 5, valueTo: 1 }, 'valueTo'],
    [{ operator: 'contains', value: '  ' }, 'value'],
    [{ operator: 'contains', value: 3 }, 'value'],
    [{ operator: 'stale', value: 0 }, 'value'],
    [{ operator: 'stale' }, 'value'],
    [{ operator: 'regex', value: '.*' }, 'operator'],
  ])('rejects %j at %s', (fields, path) => {
    const issues = issuesOf({ ...base, ...fields })
    expect(issues.length).toBeGreaterThan(0)
    expect(issues.some((issue) => issue.startsWith(`${path}:`))).toBe(true)
  })

  it('limits the message to 200 characters and requires one', () => {
    expect(issuesOf({ ...base, operator: 'missing', message: 'x'.repeat(200) })).toEqual([])
    expect(issuesOf({ ...base, operator: 'missing', message: 'x'.repeat(201) })).toEqual(['message: must be at most 200 characters'])
    expect(issuesOf({ ...base, operator: 'missing', message: '   ' })).toEqual(['message: is required'])
    expect(issuesOf({ ...base, operator: 'missing', message: 'a\u0007b' })).toEqual(['message: must not contain control characters'])
  })

  it('rejects unknown levels and empty attributes', () => {
    expect(issuesOf({ ...base, operator: 'missing', level: 'panic' })[0]).toMatch(/^level:/)
    expect(issuesOf({ ...base, operator: 'missing', attribute: ' ' })).toEqual(['attribute: is required'])
  })

  it('trims text and drops fields the operator does not use', () => {
    expect(alertRuleSchema.parse({ ...base, attribute: ' temperature ', operator: 'missing', value: 5, valueTo: 9 })).toEqual({
      attribute: 'temperature',
      operator: 'missing',
      level: 'warning',
      message: 'hot: {value}',
    })
    expect(alertRuleSchema.parse({ ...base, operator: 'gt', value: 30, valueTo: 40 })).toEqual({ ...base, operator: 'gt', value: 30 })
    expect(alertRuleSchema.parse({ ...base, operator: 'contains', value: ' flood ' }).value).toBe('flood')
  })

  it('validates lists of rules', () => {
    expect(alertRulesSchema.safeParse([{ ...base, operator: 'missing' }]).success).toBe(true)
    expect(alertRulesSchema.safeParse([{ ...base, operator: 'gt' }]).success).toBe(false)
  })
})

describe('level ordering', () => {
  it('ranks info < warning < critical', () => {
    expect(ALERT_LEVELS).toEqual(['info', 'warning', 'critical'])
    expect(ALERT_LEVELS.map(levelRank)).toEqual([0, 1, 2])
  })

  it('sorts both ways', () => {
    const levels: AlertLevel[] = ['warning', 'critical', 'info', 'warning']
    expect([...levels].sort(compareLevels)).toEqual(['info', 'warning', 'warning', 'critical'])
    expect([...levels].sort(bySeverity)).toEqual(['critical', 'warning', 'warning', 'info'])
  })

  it('answers threshold and maximum questions', () => {
    expect(isAtLeast('critical', 'warning')).toBe(true)
    expect(isAtLeast('warning', 'warning')).toBe(true)
    expect(isAtLeast('info', 'warning')).toBe(false)
    expect(maxLevel(['info', 'critical', 'warning'])).toBe('critical')
    expect(maxLevel([])).toBeUndefined()
  })

  it('recognises levels', () => {
    expect(isAlertLevel('info')).toBe(true)
    expect(isAlertLevel('toString')).toBe(false)
    expect(isAlertLevel(2)).toBe(false)
  })
})
