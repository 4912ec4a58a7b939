import http from 'node:http'
import { gunzipSync } from 'node:zlib'

import { describe, expect, it } from 'vitest'

import { call, servers } from './http'

/** The first script of the home page: a Next static chunk, precompressed by the build. */
async function firstChunk(server: Parameters<typeof call>[0]) {
  const html = await (await call(server, 'anonymous', 'GET', '/')).text()
  const chunk = html.match(/\/_next\/static\/chunks\/[\w./-]+\.js/)?.[0]
  expect(chunk, 'a chunk in the home page').toBeDefined()
  return chunk as string
}


/** An answer's bytes as they came over the wire (fetch would undo the encoding and hide the length). */
function rawAnswer(url: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end()
  })
}

describe.each(servers())('V12 Files: static answers compressed at build time ($name)', (server) => {
  it('sends the chunk the page names as brotli or gzip, the same script as Next sends unencoded', async () => {
    const chunk = await firstChunk(server)
    const plain = await call(server, 'anonymous', 'GET', chunk, undefined, { 'accept-encoding': 'identity' })
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-encoding')).toBeNull()
    const script = await plain.text()
    for (const encoding of ['br', 'gzip']) {
      // fetch undoes the encoding it names: the text must come out the same.
      const answer = await call(server, 'anonymous', 'GET', chunk, undefined, { 'accept-encoding': encoding })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-encoding')).toBe(encoding)
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await answer.text()).toBe(script)
    }
  })

  it('sends a cached page gzipped the same way every time, whole and with its length, and anew once the page changes', async () => {
    const slug = `compressed-${Date.now()}`
    const created = await call(server, 'admin', 'POST', '/api/pages', { title: 'Compressed once', slug, _status: 'published', layout: [] })
    expect(created.status).toBe(201)
    const { doc } = (await created.json()) as { doc: { id: number | string } }
    const url = `${server.baseUrl}/en/${slug}`
    // The first visit renders the page into Next's cache; the next ones are answered from it.
    expect((await rawAnswer(url)).status).toBe(200)
    const answers = [await rawAnswer(url), await rawAnswer(url), await rawAnswer(url)]
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.headers['content-encoding']).toBe('gzip')
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i)
      if (answer.headers['content-length']) expect(Number(answer.headers['content-length'])).toBe(answer.body.length)
      expect(answer.headers.etag).toBe(answers[0]!.headers.etag)
      expect(gunzipSync(answer.body).toString()).toBe(gunzipSync(answers[0]!.body).toString())
    }
    expect(gunzipSync(answers[0]!.body).toString()).toContain('Compressed once')
    const head = await rawAnswer(url, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-encoding']).toBe('gzip')

    expect((await call(server, 'admin', 'PATCH', `/api/pages/${doc.id}`, { title: 'Compressed again' })).status).toBe(200)
    await expect.poll(async () => gunzipSync((await rawAnswer(url)).body).toString(), { timeout: 15_000 }).toContain('Compressed again')
    const changed = await rawAnswer(url)
    expect(gunzipSync(changed.body).toString()).not.toContain('Compressed once')
  })

  it('serves nothing from the compressed copies or their manifest by a crafted path', async () => {
    const chunk = await firstChunk(server)
    for (const path of [
      '/.next/precompressed/manifest.json',
      '/_next/static/../precompressed/manifest.json',
      '/_next/static/%2e%2e/precompressed/manifest.json',
      '/_next/static/..%2Fprecompressed%2Fmanifest.json',
      '/_next/precompressed/manifest.json',
      `${chunk}.br`,
      `/.next/precompressed${chunk}.br`,
    ]) {
      const answer = await call(server, 'anonymous', 'GET', path, undefined, { 'accept-encoding': 'br, gzip' })
      const body = await answer.text()
      expect(answer.status, path).toBeGreaterThanOrEqual(400)
      expect(body, path).not.toContain('"cacheControl"')
    }
  })

  it('asks for the colour-scheme client hint in the admin only: public pages are fetched once and cached whole', async () => {
    for (const path of ['/', '/posts', '/basemap/tiles/0/0/0']) {
      const answer = await call(server, 'anonymous', 'GET', path)
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('critical-ch'), path).toBeNull()
      expect(answer.headers.get('accept-ch'), path).toBeNull()
      expect(answer.headers.get('vary') ?? '', path).not.toMatch(/Sec-CH/i)
    }
    const admin = await call(server, 'anonymous', 'GET', '/admin/login')
    expect(admin.headers.get('accept-ch')).toBe('Sec-CH-Prefers-Color-Scheme')
  })

  it('answers bundled basemap tiles inside the grid only, with a clear error and no stack otherwise', async () => {
    const tile = await call(server, 'anonymous', 'GET', '/basemap/tiles/6/31/23', undefined, { 'accept-encoding': 'gzip' })
    expect(tile.status).toBe(200)
    expect(tile.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile')
    expect(tile.headers.get('cache-control')).toContain('immutable')
    // Open sea: nothing to draw.
    expect((await call(server, 'anonymous', 'GET', '/basemap/tiles/8/0/128')).status).toBe(204)
    for (const path of ['/basemap/tiles/9/0/0', '/basemap/tiles/2/4/0', '/basemap/tiles/2/0/4', '/basemap/tiles/a/0/0', '/basemap/tiles/-1/0/0', '/basemap/tiles/99999999/0/0', '/basemap/tiles/1/0/1e3']) {
      const answer = await call(server, 'anonymous', 'GET', path)
      const body = await answer.text()
      expect(answer.status, path).toBe(400)
      expect(JSON.parse(body), path).toHaveProperty('error')
      expect(body, path).not.toMatch(/at .+\.(js|ts):\d+/)
    }
  })
})
