import { describe, expect, it } from 'vitest'

import { isBlank, parseJsonBytes } from '@/ngsi/json'

/** An entity as brokers send them, with the hostile parts a cut could fall into. */
function entity(index: number, hostile: boolean) {
  return {
    id: `urn:ngsi-ld:Thing:${index}`,
    type: 'Thing',
    name: { type: 'Property', value: hostile ? `Plaza "Mayor" },{ \\ ${index} — ünïcödé 中文 🚲` : `Calle Marqués ${index}` },
    location: { type: 'GeoProperty', value: { type: 'Polygon', coordinates: [[[-3.8, 43.4], [-3.7, 43.4], [-3.7, 43.5], [-3.8, 43.4]]] } },
    ...(hostile ? { readings: { type: 'Property', value: [{ a: 1 }, { b: '},{' }, { c: [{ d: 2 }, { e: 3 }] }] } } : {}),
    no2: { type: 'Property', value: index / 7, unitCode: 'GQ', observedAt: '2026-11-25T06:35:44.000Z' },
  }
}

const bytesOf = (text: string) => Buffer.from(text, 'utf8')

describe('parseJsonBytes', () => {
  it('gives what JSON.parse gives for a large page of entities, cut between them', () => {
    const page = Array.from({ length: 2_000 }, (_, index) => entity(index, false))
    const text = JSON.stringify(page)
    expect(text.length).toBeGreaterThan(200_000)
    expect(parseJsonBytes(bytesOf(text))).toEqual(JSON.parse(text))
  })

  it('is not fooled by "},{" inside strings, escapes, multi-byte characters or nested arrays of objects', () => {
    for (const every of [1, 2, 3, 5]) {
      const page = Array.from({ length: 1_500 }, (_, index) => entity(index, index % every === 0))
      const text = JSON.stringify(page)
      expect(parseJsonBytes(bytesOf(text)), `every ${every}th entity hostile`).toEqual(JSON.parse(text))
    }
  })

  it('keeps whitespace around the array and inside it', () => {
    const text = `\n  ${JSON.stringify(Array.from({ length: 1_000 }, (_, index) => entity(index, false)), null, 1)}  \r\n`
    expect(parseJsonBytes(bytesOf(text))).toEqual(JSON.parse(text))
  })

  it('refuses what JSON.parse refuses, wherever the fault lies', () => {
    const valid = JSON.stringify(Array.from({ length: 1_500 }, (_, index) => entity(index, false)))
    const middle = valid.indexOf('},{', valid.length / 2)
    const broken = [
      valid.slice(0, -1),
      `${valid.slice(0, -1)},]`,
      `${valid}]`,
      `${valid} x`,
      `${valid.slice(0, middle + 2)} ,${valid.slice(middle + 2)}`,
      `${valid.slice(0, middle + 2)}${' '.repeat(70_000)},${valid.slice(middle + 2)}`,
      `${valid.slice(0, middle)}}${valid.slice(middle)}`,
      valid.replace('"Calle Marqués 700"', '"Calle Marqués 700'),
      `[${valid.slice(1)}`.replace('urn:ngsi-ld:Thing:9"', 'urn:ngsi-ld:Thing:9\\"'),
    ]
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError)
      expect(() => parseJsonBytes(bytesOf(text))).toThrow(SyntaxError)
    }
  })

  it('leaves the bytes as they were, after a parse and after a refusal', () => {
    const hostile = JSON.stringify(Array.from({ length: 1_500 }, (_, index) => entity(index, index % 2 === 0)))
    for (const text of [hostile, `${hostile.slice(0, hostile.length / 2)}!${hostile.slice(hostile.length / 2)}`]) {
      const bytes = bytesOf(text)
      const copy = Buffer.from(bytes)
      try {
        parseJsonBytes(bytes)
      } catch {
        // the broken one
      }
      expect(bytes.equals(copy)).toBe(true)
    }
  })

  it('parses small bodies and objects whole', () => {
    expect(parseJsonBytes(bytesOf('[]'))).toEqual([])
    expect(parseJsonBytes(bytesOf(' {"status":"UP"} '))).toEqual({ status: 'UP' })
    const big = { entities: Array.from({ length: 1_000 }, (_, index) => entity(index, true)) }
    expect(parseJsonBytes(bytesOf(JSON.stringify(big)))).toEqual(big)
    expect(() => parseJsonBytes(bytesOf('{"a":'))).toThrow(SyntaxError)
  })
})

describe('isBlank', () => {
  it('is true for nothing or JSON whitespace only', () => {
    expect(isBlank(bytesOf(''))).toBe(true)
    expect(isBlank(bytesOf(' \n\r\t'))).toBe(true)
    expect(isBlank(bytesOf(' [] '))).toBe(false)
  })
})
