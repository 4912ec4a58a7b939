import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterEach, describe, expect, it } from 'vitest'

import { isReady, linkedPagePaths, warmUp } from '@/server/warmUp'

const HOME = `<!doctype html><html><body>
<a href="/">Home</a> <a href="/posts">News</a> <a class="x" href="/questions?from=nav#top">Questions</a>
<a href="/posts">News again</a> <a href="/admin">Admin</a> <a href="/api/health">API</a>
<a href="/_next/static/chunk.js">chunk</a> <a href="/posts/feed.xml">Feed</a> <a href="https://example.org/">Elsewhere</a>
<a href="//evil.example/x">Protocol-relative</a> <a href="/next/preview?path=/">Preview</a>
<link href="/about"> <a href="/the-week">The week</a>
</body></html>`

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

/** A site that records what it was asked for; `/` answers after `homeDelayMs`. */
function startSite(homeDelayMs = 0, hang: string[] = []) {
  const asked: string[] = []
  server = http.createServer((request, response) => {
    asked.push(request.url ?? '')
    if (hang.includes(request.url ?? '')) return
    const answer = () => response.writeHead(request.url === '/' ? 200 : 404, { 'content-type': 'text/html' }).end(request.url === '/' ? HOME : 'no')
    if (request.url === '/') setTimeout(answer, homeDelayMs)
    else answer()
  })
  return new Promise<{ origin: string; asked: string[] }>((resolve) =>
    server!.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, asked })),
  )
}

describe('warm-up after a start', () => {
  it('finds the pages a home page links to, and nothing else', () => {
    expect(linkedPagePaths(HOME)).toEqual(['/', '/posts', '/questions', '/the-week'])
  })

  it('asks for the home page, a Payload REST route (which starts the job runners), its linked pages and the layer routes, the REST route again, and is not ready until then', async () => {
    const { origin, asked } = await startSite(200)
    const warming = warmUp(origin)
    expect(isReady()).toBe(false)
    await warming
    expect(isReady()).toBe(true)
    expect(asked.slice(0, 2)).toEqual(['/', '/api/users/init'])
    // Once more at the end, with Payload surely started (see warmUp).
    expect(asked.at(-1)).toBe('/api/users/init')
    expect(asked.slice(2, -1).sort()).toEqual(
      ['/api/layers/0/features', '/api/layers/0/history', '/api/layers/0/preview', '/api/layers/0/tiles/0/0/0', '/basemap/tiles/0/0/0', '/posts', '/questions', '/the-week'].sort(),
    )
  })

  it('waits for a server that is not listening yet', async () => {
    const probe = http.createServer()
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)))
    await new Promise((resolve) => probe.close(resolve))
    const warming = warmUp(`http://127.0.0.1:${port}`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(isReady()).toBe(false)
    const asked: string[] = []
    server = http.createServer((request, response) => {
      asked.push(request.url ?? '')
      response.writeHead(200).end('<a href="/posts">News</a>')
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', () => resolve()))
    await warming
    expect(isReady()).toBe(true)
    expect(asked).toContain('/posts')
  })

  it('becomes ready at its deadline when a page never answers', async () => {
    const { origin } = await startSite(0, ['/posts'])
    const started = Date.now()
    await warmUp(origin, { deadlineMs: 500 })
    expect(isReady()).toBe(true)
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
