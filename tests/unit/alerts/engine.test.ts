import { describe, expect, it } from 'vitest'

import { evaluateFeatures, evaluateRules, fillTemplate, toFiniteNumber, type AlertRule } from '@/alerts'

const rule = (overrides: Partial<AlertRule> & Pick<AlertRule, 'operator'>): AlertRule => ({
  attribute: 'temperature',
  level: 'warning',
  message: '{attribute} is {value}',
  ...overrides,
})

const fires = (r: AlertRule, properties: Record<string, unknown>, options = {}) => evaluateRules([r], properties, options) !== null

describe('numeric comparison operators', () => {
  it.each([
    ['gt', 30, 31, true],
    ['gt', 30, 30, false],
    ['gte', 30, 30, true],
    ['gte', 30, 29.99, false],
    ['lt', 0, -0.5, true],
    ['lt', 0, 0, false],
    ['lte', 0, 0, true],
    ['lte', 0, 0.1, false],
  ] as const)('%s %d against %d → %s', (operator, value, actual, expected) => {
    expect(fires(rule({ operator, value }), { temperature: actual })).toBe(expected)
  })

  it('accepts numeric text and reports the number', () => {
    expect(evaluateRules([rule({ operator: 'gt', value: 30 })], { temperature: ' 31.5 ' })).toEqual({
      level: 'warning',
      message: 'temperature is 31.5',
      attribute: 'temperature',
      value: 31.5,
    })
    expect(fires(rule({ operator: 'gt', value: 30 }), { temperature: '4e1' })).toBe(true)
  })

  it('between is inclusive at both ends', () => {
    const between = rule({ operator: 'between', value: 10, valueTo: 20 })
    expect(fires(between, { temperature: 10 })).toBe(true)
    expect(fires(between, { temperature: 15 })).toBe(true)
    expect(fires(between, { temperature: 20 })).toBe(true)
    expect(fires(between, { temperature: 9.9 })).toBe(false)
    expect(fires(between, { temperature: 20.1 })).toBe(false)
  })

  it('outside is strict at both ends', () => {
    const outside = rule({ operator: 'outside', value: 10, valueTo: 20 })
    expect(fires(outside, { temperature: 9 })).toBe(true)
    expect(fires(outside, { temperature: 21 })).toBe(true)
    expect(fires(outside, { temperature: 10 })).toBe(false)
    expect(fires(outside, { temperature: 20 })).toBe(false)
    expect(fires(outside, { temperature: 15 })).toBe(false)
  })

  it('between/outside without an upper bound never fire', () => {
    expect(fires(rule({ operator: 'between', value: 10 }), { temperature: 15 })).toBe(false)
    expect(fires(rule({ operator: 'outside', value: 10 }), { temperature: 5 })).toBe(false)
  })
})

describe('equality operators', () => {
  it('== compares numbers numerically and text exactly', () => {
    expect(fires(rule({ operator: 'eq', value: 5 }), { temperature: 5 })).toBe(true)
    expect(fires(rule({ operator: 'eq', value: 5 }), { temperature: '5.0' })).toBe(true)
    expect(fires(rule({ operator: 'eq', value: 5 }), { temperature: 6 })).toBe(false)
    expect(fires(rule({ attribute: 'status', operator: 'eq', value: 'closed' }), { status: 'closed' })).toBe(true)
    expect(fires(rule({ attribute: 'status', operator: 'eq', value: 'closed' }), { status: 'Closed' })).toBe(false)
    expect(fires(rule({ attribute: 'open', operator: 'eq', value: 'false' }), { open: false })).toBe(true)
  })

  it('!= fires on a different present value only', () => {
    const notOk = rule({ attribute: 'status', operator: 'ne', value: 'ok' })
    expect(fires(notOk, { status: 'fault' })).toBe(true)
    expect(fires(notOk, { status: 'ok' })).toBe(false)
    expect(fires(notOk, {})).toBe(false)
    expect(fires(notOk, { status: null })).toBe(false)
    expect(fires(rule({ operator: 'ne', value: 0 }), { temperature: 1 })).toBe(true)
    expect(fires(rule({ operator: 'ne', value: 0 }), { temperature: 0 })).toBe(false)
  })

  it('!= against a number ignores values that are not numbers', () => {
    expect(fires(rule({ operator: 'ne', value: 0 }), { temperature: 'n/a' })).toBe(false)
    expect(fires(rule({ operator: 'ne', value: 0 }), { temperature: Number.NaN })).toBe(false)
  })
})

describe('contains', () => {
  it('finds text case-insensitively and members of lists', () => {
    const c = rule({ attribute: 'tags', operator: 'contains', value: 'Flood' })
    expect(fires(c, { tags: 'risk of flooding' })).toBe(true)
    expect(fires(c, { tags: ['rain', 'FLOOD'] })).toBe(true)
    expect(fires(c, { tags: ['rain', 'flooding'] })).toBe(false)
    expect(fires(c, { tags: 'dry' })).toBe(false)
    expect(fires(c, { tags: 42 })).toBe(false)
    expect(fires(c, { tags: { flood: true } })).toBe(false)
  })

  it('reports a list as joined text', () => {
    const alert = evaluateRules([rule({ attribute: 'tags', operator: 'contains', value: 'flood' })], { tags: ['rain', 'flood'] })
    expect(alert).toMatchObject({ value: 'rain, flood', message: 'tags is rain, flood' })
  })
})

describe('missing', () => {
  it.each([
    ['absent', {}],
    ['null', { temperature: null }],
    ['undefined', { temperature: undefined }],
    ['empty text', { temperature: '  ' }],
    ['NaN', { temperature: Number.NaN }],
    ['Infinity', { temperature: Number.POSITIVE_INFINITY }],
    ['normalized without a value', { temperature: { type: 'Property', value: null } }],
  ])('fires when %s', (_name, properties) => {
    expect(evaluateRules([rule({ operator: 'missing', message: 'no {attribute}' })], properties)).toEqual({
      level: 'warning',
      message: 'no temperature',
      attribute: 'temperature',
      value: null,
    })
  })

  it.each([0, false, 'x', [], {}])('does not fire on %j', (value) => {
    expect(fires(rule({ operator: 'missing' }), { temperature: value })).toBe(false)
  })
})

describe('stale', () => {
  const now = new Date('2025-06-01T12:00:00Z')
  const stale = rule({ operator: 'stale', value: 15, message: 'no reading since {value}' })

  it('fires when the observation is older than the minutes given', () => {
    const alert = evaluateRules([stale], { temperature: 20 }, { now, observedAt: '2025-06-01T11:44:00Z' })
    expect(alert).toEqual({
      level: 'warning',
      message: 'no reading since 2025-06-01T11:44:00Z',
      attribute: 'temperature',
      value: '2025-06-01T11:44:00Z',
    })
  })

  it('does not fire at or under the limit, in the future, or without a valid time', () => {
    expect(fires(stale, {}, { now, observedAt: '2025-06-01T11:45:00Z' })).toBe(false)
    expect(fires(stale, {}, { now, observedAt: '2025-06-01T11:59:00Z' })).toBe(false)
    expect(fires(stale, {}, { now, observedAt: '2025-06-01T13:00:00Z' })).toBe(false)
    expect(fires(stale, {}, { now })).toBe(false)
    expect(fires(stale, {}, { now, observedAt: 'yesterday-ish' })).toBe(false)
    expect(fires(stale, {}, { now: new Date(Number.NaN), observedAt: '2025-06-01T11:00:00Z' })).toBe(false)
  })

  it("prefers a normalized property's own observedAt", () => {
    const properties = { temperature: { type: 'Property', value: 20, observedAt: '2025-06-01T10:00:00Z' } }
    expect(fires(stale, properties, { now, observedAt: '2025-06-01T11:59:00Z' })).toBe(true)
  })

  it('uses the current time by default', () => {
    expect(fires(stale, {}, { observedAt: new Date(Date.now() - 16 * 60_000).toISOString() })).toBe(true)
    expect(fires(stale, {}, { observedAt: new Date(Date.now() - 5 * 60_000).toISOString() })).toBe(false)
  })
})

describe('levels and ties', () => {
  it('returns the most severe firing rule', () => {
    const rules: AlertRule[] = [
      rule({ operator: 'gt', value: 25, level: 'info', message: 'warm' }),
      rule({ operator: 'gt', value: 35, level: 'critical', message: 'extreme' }),
      rule({ operator: 'gt', value: 30, level: 'warning', message: 'hot' }),
    ]
    expect(evaluateRules(rules, { temperature: 26 })?.message).toBe('warm')
    expect(evaluateRules(rules, { temperature: 31 })?.message).toBe('hot')
    expect(evaluateRules(rules, { temperature: 40 })?.message).toBe('extreme')
    expect(evaluateRules(rules, { temperature: 20 })).toBeNull()
  })

  it('the first listed rule wins a tie', () => {
    const rules: AlertRule[] = [
      rule({ operator: 'gt', value: 30, level: 'warning', message: 'first' }),
      rule({ operator: 'gt', value: 20, level: 'warning', message: 'second' }),
    ]
    expect(evaluateRules(rules, { temperature: 40 })?.message).toBe('first')
    expect(evaluateRules(rules, { temperature: 25 })?.message).toBe('second')
  })

  it('no rules, no alert', () => {
    expect(evaluateRules([], { temperature: 40 })).toBeNull()
  })
})

describe('bad data never fires and never throws', () => {
  const numeric: AlertRule[] = [
    rule({ operator: 'gt', value: 0 }),
    rule({ operator: 'lt', value: 100 }),
    rule({ operator: 'between', value: -1000, valueTo: 1000 }),
    rule({ operator: 'outside', value: 0, valueTo: 1 }),
  ]

  it.each([
    ['text', 'hot'],
    ['empty text', ''],
    ['hex text', '0x10'],
    ['boolean', true],
    ['object', { value: 5 }],
    ['array', [5]],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['null', null],
    ['Infinity text', 'Infinity'],
    ['huge text', '1e400'],
  ])('numeric operators ignore %s', (_name, value) => {
    expect(evaluateRules(numeric, { temperature: value })).toBeNull()
  })

  it('tolerates properties that are not objects', () => {
    const r = [rule({ operator: 'gt', value: 0 })]
    expect(evaluateRules(r, null)).toBeNull()
    expect(evaluateRules(r, undefined)).toBeNull()
    expect(evaluateRules(r, 'nonsense' as unknown as Record<string, unknown>)).toBeNull()
  })

  it('does not read inherited properties', () => {
    expect(fires(rule({ attribute: 'constructor', operator: 'missing' }), {})).toBe(true)
    expect(fires(rule({ attribute: 'toString', operator: 'ne', value: 'x' }), {})).toBe(false)
    expect(fires(rule({ attribute: '__proto__', operator: 'contains', value: 'object' }), {})).toBe(false)
  })

  it('skips malformed hand-built rules', () => {
    const malformed = [
      { attribute: 'temperature', operator: 'gt', level: 'warning', message: 'no value' },
      { attribute: 'temperature', operator: 'gt', value: '30', level: 'warning', message: 'text value' },
      { attribute: 'temperature', operator: 'gt', value: Number.NaN, level: 'warning', message: 'NaN value' },
      { attribute: 'temperature', operator: 'gt', value: 1, level: 'panic', message: 'bad level' },
      { attribute: 'temperature', operator: 'regex', value: '.', level: 'critical', message: 'bad operator' },
      { attribute: 'temperature', operator: 'stale', value: -5, level: 'critical', message: 'bad minutes' },
      { attribute: 'temperature', operator: 'contains', value: 5, level: 'critical', message: 'bad needle' },
      null,
    ] as unknown as AlertRule[]
    expect(evaluateRules(malformed, { temperature: 40 }, { observedAt: '2000-01-01T00:00:00Z' })).toBeNull()
    expect(evaluateRules('nope' as unknown as AlertRule[], { temperature: 40 })).toBeNull()
  })
})

describe('message placeholders', () => {
  it('fills every {value} and {attribute}', () => {
    const alert = evaluateRules([rule({ operator: 'gt', value: 1, message: '{attribute}={value} ({value})' })], { temperature: 2 })
    expect(alert?.message).toBe('temperature=2 (2)')
  })

  it('leaves other braces alone and keeps markup as plain text', () => {
    const alert = evaluateRules(
      [rule({ attribute: 'status', operator: 'eq', value: '<b>x</b>', message: '{other} <i>{value}</i>' })],
      { status: '<b>x</b>' },
    )
    expect(alert?.message).toBe('{other} <i><b>x</b></i>')
  })

  it('does not expand placeholders found inside values', () => {
    const alert = evaluateRules([rule({ attribute: 'status', operator: 'contains', value: 'x', message: 'got {value}' })], {
      status: 'x {attribute} {value}',
    })
    expect(alert?.message).toBe('got x {attribute} {value}')
  })

  it('replaces control characters and cuts long values', () => {
    expect(fillTemplate('v={value}', 'a', 'line1\nline2\u0000')).toBe('v=line1 line2 ')
    const long = fillTemplate('{value}', 'a', 'x'.repeat(500))
    expect(long).toHaveLength(100)
    expect(long.endsWith('…')).toBe(true)
    expect(fillTemplate('[{value}]', 'a', null)).toBe('[]')
  })
})

describe('evaluateFeatures', () => {
  const rules: AlertRule[] = [
    rule({ operator: 'gt', value: 35, level: 'critical', message: '{value} °C' }),
    rule({ operator: 'gt', value: 30, level: 'warning', message: '{value} °C' }),
    rule({ operator: 'stale', value: 60, level: 'info', message: 'stale' }),
  ]
  const now = new Date('2025-06-01T12:00:00Z')

  it('lists one alert per firing feature, by level then natural id order', () => {
    const alerts = evaluateFeatures(
      rules,
      [
        { id: 'sensor-10', properties: { temperature: 31 } },
        { id: 'sensor-2', properties: { temperature: 32 } },
        { id: 'sensor-3', properties: { temperature: 20 } },
        { id: 'sensor-1', properties: { temperature: 40 } },
        { id: 7, properties: { temperature: 20, observedAt: '2025-06-01T09:00:00Z' } },
        { properties: { id: 'from-properties', temperature: 36 } },
        { properties: { temperature: 33 } },
        { id: 'sensor-4', properties: null },
      ],
      { now },
    )
    expect(alerts.map((a) => [a.level, a.featureId])).toEqual([
      ['critical', 'from-properties'],
      ['critical', 'sensor-1'],
      ['warning', 'sensor-2'],
      ['warning', 'sensor-10'],
      ['warning', null],
      ['info', '7'],
    ])
    expect(alerts[1]).toEqual({ featureId: 'sensor-1', level: 'critical', message: '40 °C', attribute: 'temperature', value: 40 })
  })

  it('uses a feature-level observedAt', () => {
    const alerts = evaluateFeatures(rules, [{ id: 'a', properties: {}, observedAt: '2025-06-01T10:00:00Z' }], { now })
    expect(alerts).toEqual([{ featureId: 'a', level: 'info', message: 'stale', attribute: 'temperature', value: '2025-06-01T10:00:00Z' }])
  })

  it('skips junk entries', () => {
    expect(evaluateFeatures(rules, [null, 5, 'x'] as unknown as [])).toEqual([])
  })
})

describe('toFiniteNumber', () => {
  it.each([
    [1, 1],
    ['1.5', 1.5],
    ['-.5', -0.5],
    ['1e3', 1000],
    ['', undefined],
    ['1,5', undefined],
    ['12abc', undefined],
    [Number.NaN, undefined],
    [true, undefined],
  ])('%j → %j', (input, output) => {
    expect(toFiniteNumber(input)).toBe(output)
  })
})
