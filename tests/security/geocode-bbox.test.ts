import { describe, expect, it } from 'vitest'

import { call, expectRefusal, servers } from './http'

/** The address search's area: a city-sized box, validated before any rate-limited upstream call. */
describe.each(servers())('V5 Validation: the geocode route refuses a bad bbox ($name)', (server) => {
  it.each([
    ['three numbers', '-4,43.3,-3.6'],
    ['five numbers', '-4,43.3,-3.6,43.6,1'],
    ['words', 'west,south,east,north'],
    ['west east of east', '-3.6,43.3,-4,43.6'],
    ['south north of north', '-4,43.6,-3.6,43.3'],
    ['off the globe', '-200,43.3,-190,43.6'],
    ['a continent', '-10,35,5,50'],
    ['exponents', '1e1,43.3,2e1,43.6'],
    ['very long', `${'1'.repeat(300)},0,1,1`],
    ['script', '<script>alert(1)</script>'],
  ])('%s → 400 {error}', async (_name, bbox) => {
    const response = await call(server, 'anonymous', 'GET', `/api/geocode?${new URLSearchParams({ q: 'Pereda', bbox })}`)
    const text = await expectRefusal(response, 400)
    const body = JSON.parse(text) as { error?: string }
    expect(body.error).toMatch(/bbox/)
    expect(text).not.toContain('<script>')
  })
})
