import { describe, expect, it } from 'vitest'

import { bboxToGeo, buildQuery, entityQueryParams, NgsiError, queryNodeSchema, queryRowsSchema, queryString, rowsToQuery, type QueryNode, type QueryValue } from '@/ngsi'

// The demo broker's parser follows ETSI GS CIM 009 §4.9: what it parses back is what a broker would read.
import { parseQuery } from '../../../demo/broker/query-language'

const compare = (attribute: string, operator: '==' | '!=' | '>' | '>=' | '<' | '<=', value: QueryValue): QueryNode => ({ kind: 'compare', attribute, operator, value })

function expectBadRequest(run: () => unknown, message?: RegExp) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(NgsiError)
    expect((error as NgsiError).kind).toBe('bad-request')
    if (message) expect((error as NgsiError).message).toMatch(message)
    return
  }
  throw new Error('expected a bad-request NgsiError')
}

/** Small deterministic PRNG so a failing fuzz case can be reproduced. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

describe('buildQuery', () => {
  it('writes comparisons of numbers, booleans, strings, dates, ranges and lists', () => {
    expect(buildQuery(compare('temperature', '>', 20.5))).toBe('temperature>20.5')
    expect(buildQuery(compare('temperature', '<=', -3))).toBe('temperature<=-3')
    expect(buildQuery(compare('outlier', '==', true))).toBe('outlier==true')
    expect(buildQuery(compare('name', '!=', 'Big Red Barn'))).toBe('name!="Big Red Barn"')
    expect(buildQuery(compare('dateObserved', '>=', { date: '2024-05-01T10:00:00+02:00' }))).toBe('dateObserved>=2024-05-01T08:00:00.000Z')
    expect(buildQuery(compare('dateObserved', '<', new Date(Date.UTC(2024, 0, 2))))).toBe('dateObserved<2024-01-02T00:00:00.000Z')
    expect(buildQuery(compare('temperature', '==', { from: 10, to: 20 }))).toBe('temperature==10..20')
    expect(buildQuery(compare('dateObserved', '==', { from: { date: '2024-01-01' }, to: { date: '2024-01-31' } }))).toBe('dateObserved==2024-01-01T00:00:00.000Z..2024-01-31T00:00:00.000Z')
    expect(buildQuery(compare('airQualityLevel', '==', ['good', 'moderate']))).toBe('airQualityLevel=="good","moderate"')
    expect(buildQuery(compare('address[addressLocality]', '==', 'Tiergarten'))).toBe('address[addressLocality]=="Tiergarten"')
    expect(buildQuery(compare('temperature.observedAt', '>', { date: '2024-01-01T00:00:00Z' }))).toBe('temperature.observedAt>2024-01-01T00:00:00.000Z')
  })

  it('escapes quotes and backslashes and keeps ;|() inside the string', () => {
    const text = 'say "hi" \\ ok;(x)|y,z..w'
    const q = buildQuery(compare('name', '==', text))
    expect(q).toBe('name=="say \\"hi\\" \\\\ ok;(x)|y,z..w"')
    expect(parseQuery(q)).toEqual({ kind: 'compare', path: { attribute: 'name', segments: [] }, operator: '==', value: { kind: 'string', value: text } })
  })

  it('joins with ; and |, parenthesising so the tree survives operator precedence', () => {
    const a = compare('a', '==', 1)
    const b = compare('b', '==', 2)
    const c = compare('c', '==', 3)
    expect(buildQuery({ kind: 'and', terms: [a, { kind: 'or', terms: [b, c] }] })).toBe('a==1;(b==2|c==3)')
    expect(buildQuery({ kind: 'or', terms: [{ kind: 'and', terms: [a, b] }, c] })).toBe('(a==1;b==2)|c==3')
    expect(buildQuery({ kind: 'and', terms: [a, b, c] })).toBe('a==1;b==2;c==3')
    expect(buildQuery({ kind: 'group', term: { kind: 'or', terms: [a, b] } })).toBe('(a==1|b==2)')
    // A one-term AND around an OR must not let the OR leak into the outer AND.
    expect(buildQuery({ kind: 'and', terms: [{ kind: 'and', terms: [{ kind: 'or', terms: [a, b] }] }, c] })).toBe('(a==1|b==2);c==3')
    expect(parseQuery(buildQuery({ kind: 'and', terms: [a, { kind: 'or', terms: [b, c] }] }))).toMatchObject({ kind: 'and', terms: [{ kind: 'compare' }, { kind: 'or' }] })
  })

  it('rejects attribute names outside the strict pattern', () => {
    for (const attribute of ['temp;x', 'a b', '1abc', 'a..b', '', 'name)', 'a[b', 'https://x.org/t', 'a|b', 'temperature==1', 'ä']) {
      expectBadRequest(() => buildQuery(compare(attribute, '==', 1)), /attribute/)
    }
  })

  it('rejects operators and values that cannot go together, and malformed values', () => {
    expectBadRequest(() => buildQuery(compare('a', '>', [1, 2])))
    expectBadRequest(() => buildQuery(compare('a', '<', { from: 1, to: 2 })))
    expectBadRequest(() => buildQuery(compare('a', '>', true)))
    expectBadRequest(() => buildQuery(compare('a', '==', Number.NaN)))
    expectBadRequest(() => buildQuery(compare('a', '==', Number.POSITIVE_INFINITY)))
    expectBadRequest(() => buildQuery(compare('a', '==', { date: 'tomorrow' })))
    expectBadRequest(() => buildQuery(compare('a', '==', [])))
    expectBadRequest(() => buildQuery({ kind: 'compare', attribute: 'a', operator: '~=', value: 'x' } as unknown as QueryNode))
    expectBadRequest(() => buildQuery({ kind: 'and', terms: [] }))
    expectBadRequest(() => buildQuery({ ...compare('a', '==', 1), raw: 'x' } as unknown as QueryNode))
  })

  it('limits nesting, and validating hostile nesting does not overflow the stack', () => {
    let deep: QueryNode = compare('a', '==', 1)
    for (let i = 0; i < 20; i++) deep = { kind: 'group', term: deep }
    expectBadRequest(() => buildQuery(deep), /nests/)
    let hostile: unknown = compare('a', '==', 1)
    for (let i = 0; i < 50_000; i++) hostile = { kind: 'and', terms: [hostile] }
    expect(queryNodeSchema.safeParse(hostile).success).toBe(false)
  })

  it('fuzz: any string value comes out as exactly one quoted token with the same text', () => {
    const next = random(20_240_601)
    const alphabet = ['"', '\\', ';', '|', '(', ')', ',', '.', '..', ' ', '=', '!', '~', '<', '>', '[', ']', "'", '%', '&', '+', '#', '\n', 'a', 'Z', '9', 'é', '€', '😀', '\u0000']
    for (let round = 0; round < 1000; round++) {
      const length = Math.floor(next() * 24)
      const text = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
      const q = buildQuery(compare('name', '==', text))
      expect(q.startsWith('name=="') && q.endsWith('"'), q).toBe(true)
      expect(parseQuery(q), JSON.stringify(text)).toEqual({ kind: 'compare', path: { attribute: 'name', segments: [] }, operator: '==', value: { kind: 'string', value: text } })
      const list = buildQuery(compare('name', '!=', [text, 'x']))
      expect(parseQuery(list)).toMatchObject({ kind: 'oneOf', negate: true, values: [{ kind: 'string', value: text }, { kind: 'string', value: 'x' }] })
    }
  })
})

describe('query rows (admin filters)', () => {
  it('validates flat rows and combines them with AND', () => {
    const rows = queryRowsSchema.parse([
      { attribute: 'temperature', operator: 'gt', value: 20 },
      { attribute: 'name', operator: 'eq', value: 'A;B' },
    ])
    expect(buildQuery(rowsToQuery(rows))).toBe('temperature>20;name=="A;B"')
    expect(buildQuery(rowsToQuery([rows[0]]))).toBe('temperature>20')
    expect(queryRowsSchema.safeParse([{ attribute: 'x) | (y', operator: 'eq', value: 1 }]).success).toBe(false)
    // Rows store operators by name (GraphQL enum values); the symbol is not a stored value.
    expect(queryRowsSchema.safeParse([{ attribute: 'x', operator: '==', value: 1 }]).success).toBe(false)
    expect(queryRowsSchema.safeParse([{ attribute: 'x', operator: 'LIKE', value: 1 }]).success).toBe(false)
    expect(queryRowsSchema.safeParse([]).success).toBe(false)
  })
})

describe('entity filters', () => {
  it('turns a bbox into a closed lon,lat polygon for georel=within', () => {
    expect(bboxToGeo([-8.7, 41.1, -8.5, 41.2])).toEqual({
      georel: 'within',
      geometry: 'Polygon',
      coordinates: [[[-8.7, 41.1], [-8.5, 41.1], [-8.5, 41.2], [-8.7, 41.2], [-8.7, 41.1]]],
    })
  })

  it('rejects bad boxes with a clear message', () => {
    expectBadRequest(() => bboxToGeo([-200, 41, -8, 42]), /bbox/)
    expectBadRequest(() => bboxToGeo([-9, -95, -8, 42]), /bbox/)
    expectBadRequest(() => bboxToGeo([-8, 41, -9, 42]), /west must be less than east/)
    expectBadRequest(() => bboxToGeo([-9, 42, -8, 41]), /south must be less than north/)
    expectBadRequest(() => bboxToGeo([Number.NaN, 41, -8, 42]))
    expectBadRequest(() => bboxToGeo([1, 2, 3]))
  })

  it('builds broker parameters and refuses unfiltered or contradictory queries', () => {
    const params = entityQueryParams({ type: 'WeatherObserved', attrs: ['temperature'], q: compare('temperature', '>', 20), bbox: [-4, 43.4, -3.7, 43.5] })
    expect(params).toMatchObject({ type: ['WeatherObserved'], attrs: ['temperature'], q: 'temperature>20', georel: 'within', geometry: 'Polygon' })
    expect(JSON.parse(params.coordinates as string)).toEqual([[[-4, 43.4], [-3.7, 43.4], [-3.7, 43.5], [-4, 43.5], [-4, 43.4]]])
    expectBadRequest(() => entityQueryParams({}), /at least one/)
    expectBadRequest(() => entityQueryParams({ limit: 10 }), /at least one/)
    expectBadRequest(() => entityQueryParams({ type: 'A,B' }))
    expectBadRequest(() => entityQueryParams({ id: ['not an id'] }))
    expectBadRequest(() => entityQueryParams({ type: 'A', bbox: [-4, 43, -3, 44], geo: { georel: 'within', geometry: 'Polygon', coordinates: [] } }))
    expectBadRequest(() => entityQueryParams({ geo: { georel: 'near;maxDistance==abc', geometry: 'Point', coordinates: [1, 2] } }))
    expect(entityQueryParams({ geo: { georel: 'near;maxDistance==800', geometry: 'Point', coordinates: [13.37, 52.51] } })).toMatchObject({ georel: 'near;maxDistance==800', coordinates: '[13.37,52.51]' })
  })

  it('percent-encodes every value, keeping only list commas', () => {
    const text = queryString({ type: ['A', 'https://x.org/B'], q: 'name=="a b+c(d)"|x!=1', id: undefined, limit: 5 })
    expect(text).toBe('?type=A,https%3A%2F%2Fx.org%2FB&q=name%3D%3D%22a%20b%2Bc%28d%29%22%7Cx%21%3D1&limit=5')
    expect(new URLSearchParams(text).get('q')).toBe('name=="a b+c(d)"|x!=1')
  })
})
