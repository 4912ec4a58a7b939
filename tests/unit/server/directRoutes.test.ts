import { describe, expect, it } from 'vitest'

import { directRouteFor, servedDirectly } from '@/server/directRoutes'

const handler = async () => undefined

describe('direct routes', () => {
  servedDirectly('/api/test-direct/[id]/tiles/[z]/[x]/[y]', handler)

  it('answers GET and HEAD of a registered path with the values of its segments', () => {
    for (const method of ['GET', 'HEAD']) {
      const found = directRouteFor(method, '/api/test-direct/12/tiles/3/4/5?city=porto')
      expect(found?.handle).toBe(handler)
      expect(found?.query).toEqual({ id: '12', z: '3', x: '4', y: '5' })
    }
  })

  it('leaves every other request to Next', () => {
    for (const [method, url] of [
      ['POST', '/api/test-direct/12/tiles/3/4/5'],
      ['OPTIONS', '/api/test-direct/12/tiles/3/4/5'],
      ['GET', '/api/test-direct/12/tiles/3/4/5/'],
      ['GET', '/api/test-direct/12/tiles/3/4'],
      ['GET', '/api/test-direct/%31/tiles/3/4/5'],
      ['GET', '/api/test-direct/1.2/tiles/3/4/5'],
      ['GET', '/api/test-direct//tiles/3/4/5'],
      ['GET', '/x/api/test-direct/12/tiles/3/4/5'],
      ['GET', '/API/test-direct/12/tiles/3/4/5'],
      ['GET', undefined],
    ] as const) {
      expect(directRouteFor(method, url), `${method} ${url}`).toBeUndefined()
    }
  })
})
