import { APIError } from 'payload'
import { describe, expect, it } from 'vitest'

import { malformedRequestReason } from '@/hooks/malformedRequest'

const multipart = new Headers({ 'content-type': 'multipart/form-data; boundary=x' })
const json = new Headers({ 'content-type': 'application/json' })
const syntaxError = () => {
  try {
    JSON.parse('abc')
  } catch (error) {
    return error
  }
}

describe('malformedRequestReason', () => {
  it('names a where or data query parameter that is not JSON', () => {
    expect(malformedRequestReason(syntaxError(), { headers: json, query: { where: 'abc' } })).toMatch(/^where: neither JSON/)
    expect(malformedRequestReason(syntaxError(), { headers: json, query: { data: '{' } })).toMatch(/^data: neither JSON/)
  })

  it('names a multipart form busboy cannot read, or whose _payload is not JSON', () => {
    for (const message of ['Malformed part header', 'Unexpected end of form', 'Multipart: Boundary not found', 'Request is not eligible for file upload']) {
      expect(malformedRequestReason(new Error(message), { headers: multipart })).toMatch(/not a well-formed multipart form/)
    }
    expect(malformedRequestReason(new APIError('Malformed part header'), { headers: multipart })).toMatch(/multipart/)
    expect(malformedRequestReason(syntaxError(), { headers: multipart })).toBe('The form field _payload is not JSON')
  })

  it('leaves every other failure alone', () => {
    expect(malformedRequestReason(new Error('Malformed part header'), { headers: json })).toBeUndefined()
    expect(malformedRequestReason(new TypeError('x is undefined'), { headers: multipart })).toBeUndefined()
    expect(malformedRequestReason(syntaxError(), { headers: json, query: { where: '{"title":{"equals":"x"}}' } })).toBeUndefined()
    expect(malformedRequestReason(syntaxError(), { headers: multipart, data: { alt: 'x' } })).toBeUndefined()
    expect(malformedRequestReason('a string', { headers: multipart })).toBeUndefined()
  })
})
