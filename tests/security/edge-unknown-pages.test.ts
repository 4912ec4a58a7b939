import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { STANDALONE_DIR } from '../../scripts/build'

import type { SecurityServer } from './global-setup'
import { call, servers } from './http'

/** Every file under the served build's `.next` (where Next keeps rendered pages), with its size. */
function filesOfBuild(): Map<string, number> {
  const files = new Map<string, number>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) files.set(full, statSync(full).size)
    }
  }
  walk(path.join(STANDALONE_DIR, '.next'))
  return files
}

// Each 404 is a full render (~30 ms of the server's CPU here). A render that kept anything would
// leave a file per address, so 500 distinct addresses show it as well as the 10,000 tried once.
const unknownRequestsFor = (server: SecurityServer) => (server.name === servers()[0]?.name ? 500 : 200)
const AT_ONCE = 16

describe.each(servers())('V12 Files and resources: unknown addresses leave nothing behind ($name)', (server) => {
  const UNKNOWN_REQUESTS = unknownRequestsFor(server)

  it(`answers ${UNKNOWN_REQUESTS.toLocaleString('en')} requests for unknown pages and posts with 404, and the build folder keeps every file as it was`, async () => {
    // Known pages rendered once first, so what they legitimately add is not counted against the 404s.
    for (const known of ['/', '/posts']) await (await call(server, 'anonymous', 'GET', known)).arrayBuffer()
    const before = filesOfBuild()
    const statuses = new Map<number, number>()
    for (let start = 0; start < UNKNOWN_REQUESTS; start += AT_ONCE) {
      await Promise.all(
        Array.from({ length: Math.min(AT_ONCE, UNKNOWN_REQUESTS - start) }, async (_, k) => {
          const n = start + k
          const route = n % 3 === 0 ? `/posts/no-such-post-${server.name}-${n}` : `/no-such-page-${server.name}-${n}`
          const response = await call(server, 'anonymous', 'GET', route)
          await response.arrayBuffer()
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        }),
      )
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: UNKNOWN_REQUESTS })
    const after = filesOfBuild()
    const added = [...after.keys()].filter((file) => !before.has(file))
    const grown = [...after].filter(([file, size]) => before.has(file) && size !== before.get(file)).map(([file]) => file)
    expect(added.slice(0, 10)).toEqual([])
    expect(grown.slice(0, 10)).toEqual([])
    // The pages citizens read still answer.
    expect((await call(server, 'anonymous', 'GET', '/')).status).toBe(200)
  }, 600_000)

  it('does not serve one process’s renders from another started from the same build', async () => {
    // The other server of this run (a different database) has no page with this slug: a 404 here stays a 404 there.
    const slug = `only-here-${server.name}-${Date.now()}`
    const created = await call(server, 'admin', 'POST', '/api/pages', { title: `Only on ${server.name}`, slug, _status: 'published' })
    expect(created.status).toBe(201)
    expect((await call(server, 'anonymous', 'GET', `/${slug}`)).status).toBe(200)
    for (const other of servers().filter((candidate) => candidate.name !== server.name)) {
      expect((await call(other, 'anonymous', 'GET', `/${slug}`)).status, other.name).toBe(404)
    }
  })
})
