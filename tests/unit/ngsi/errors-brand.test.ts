import { describe, expect, it } from 'vitest'

import { NgsiError } from '@/ngsi'

describe('NgsiError across bundle copies', () => {
  it('is recognised by instanceof whichever copy of the module made it', async () => {
    // A second evaluation of the module, as a second bundle would load it (the query makes Vite load a copy).
    // @ts-expect-error -- TypeScript does not resolve module paths with a query
    const copy = (await import('../../../src/ngsi/errors.ts?copy')) as typeof import('@/ngsi')
    expect(copy.NgsiError).not.toBe(NgsiError)
    const fromCopy = new copy.NgsiError('unavailable', 'broker down')
    expect(fromCopy instanceof NgsiError).toBe(true)
    expect(new NgsiError('unavailable', 'x') instanceof copy.NgsiError).toBe(true)
    expect(new Error('plain') instanceof NgsiError).toBe(false)
    expect((null as unknown) instanceof NgsiError).toBe(false)
  })
})
