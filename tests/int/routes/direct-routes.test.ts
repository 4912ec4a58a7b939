import { readdirSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { directRouteFor, directRouteTemplates } from '@/server/directRoutes'

// The server hook answers these routes without Next once loaded: each must register the path Next serves it at.
describe('Pages API routes served directly', () => {
  it('is what every Pages API route file registers, under its own path', async () => {
    const root = path.resolve('src/pages')
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const template = `/${file.replace(/\\/g, '/').replace(/\.ts$/, '')}`
      const { default: route } = (await import(path.join(root, file))) as { default: unknown }
      expect(directRouteTemplates(), file).toContain(template)
      // GET for data routes, POST for the broker's notifications: whichever the route takes.
      const url = template.replace(/\[\w+\]/g, '7')
      expect((directRouteFor('GET', url) ?? directRouteFor('POST', url))?.handle, file).toBe(route)
    }
  })
})
