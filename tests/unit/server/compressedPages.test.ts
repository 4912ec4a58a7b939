import { createRequire } from 'node:module'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib, { gunzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { reuseCompressedPages } from '@/server/compressedPages'

// Next's own compression middleware, as `next start` wraps every answer in it.
const compression = createRequire(import.meta.url)('next/dist/compiled/compression') as () => (req: IncomingMessage, res: ServerResponse, next: () => void) => void

const pages: Record<string, { etag: string; html: string }> = {}

/** The edge's hook, then Next's compression, then a cached page sent as Next sends one (send-payload.js: ETag, type, length, one end). */
const server = http.createServer((req, res) => {
  reuseCompressedPages(req, res)
  compression()(req, res, () => {})
  const page = pages[req.url ?? '']
  if (!page) {
    res.statusCode = 404
    res.end('no such page')
    return
  }
  if (!page.etag) {
    // A streamed answer (a dynamic page): no ETag, no length, written in parts.
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.write(page.html.slice(0, 1000))
    res.end(page.html.slice(1000))
    return
  }
  res.setHeader('Cache-Control', 's-maxage=60')
  res.setHeader('ETag', page.etag)
  if (req.headers['if-none-match'] === page.etag) {
    res.statusCode = 304
    res.end()
    return
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(page.html))
  res.end(req.method === 'HEAD' ? null : page.html)
})
let baseUrl = ''

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function get(path: string, headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' }, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
    })
    request.on('error', reject)
    request.end()
  })
}

const html = (words: string) => `<!DOCTYPE html><html><body>${`<p>${words}</p>`.repeat(500)}</body></html>`

describe('reuseCompressedPages', () => {
  it('gzips a cached page once and sends the kept bytes to later readers, whole and with their length', async () => {
    pages['/once'] = { etag: '"once-1"', html: html('Datos de la ciudad') }
    const gzip = vi.spyOn(zlib, 'createGzip')
    const answers = [await get('/once'), await get('/once'), await get('/once')]
    expect(gzip).toHaveBeenCalledTimes(1)
    gzip.mockRestore()
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.headers['content-encoding']).toBe('gzip')
      expect(answer.headers.vary).toMatch(/Accept-Encoding/)
      expect(gunzipSync(answer.body).toString()).toBe(pages['/once']!.html)
    }
    // The kept answer says its length (the first went out in chunks, as Next's compression sends it).
    expect(Number(answers[1]!.headers['content-length'])).toBe(answers[1]!.body.length)
    expect(answers[2]!.body.equals(answers[1]!.body)).toBe(true)
  })

  it('gzips anew when the page changes (another ETag), and answers HEAD and 304 as before', async () => {
    pages['/changes'] = { etag: '"changes-1"', html: html('antes') }
    await get('/changes')
    pages['/changes'] = { etag: '"changes-2"', html: html('después') }
    const changed = await get('/changes')
    expect(gunzipSync(changed.body).toString()).toContain('después')
    const kept = await get('/changes')
    expect(gunzipSync(kept.body).toString()).toContain('después')

    const head = await get('/changes', { 'accept-encoding': 'gzip' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-encoding']).toBe('gzip')
    expect(head.headers['content-length']).toBe(kept.headers['content-length'])

    const notModified = await get('/changes', { 'accept-encoding': 'gzip', 'if-none-match': '"changes-2"' })
    expect(notModified.status).toBe(304)
    expect(notModified.headers['content-encoding']).toBeUndefined()
    expect(notModified.body.length).toBe(0)
  })

  it('keeps answers of different URLs apart even when whoever answered gave them one ETag', async () => {
    pages['/same?city=santander'] = { etag: '"v7"', html: html('Santander') }
    pages['/same?city=portooo'] = { etag: '"v7"', html: html('PortoCity') }
    for (let round = 0; round < 2; round++) {
      expect(gunzipSync((await get('/same?city=santander')).body).toString()).toContain('Santander')
      expect(gunzipSync((await get('/same?city=portooo')).body).toString()).toContain('PortoCity')
    }
  })

  it('sends the page as it is to a reader that takes no gzip', async () => {
    pages['/plain'] = { etag: '"plain-1"', html: html('sin comprimir') }
    await get('/plain')
    await get('/plain')
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const answer = await get('/plain', headers)
      expect(answer.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined()
      expect(answer.body.toString()).toBe(pages['/plain']!.html)
    }
  })

  it('leaves a streamed answer (no ETag) to Next: compressed for each reader, never kept', async () => {
    pages['/streamed'] = { etag: '', html: html('en directo') }
    const gzip = vi.spyOn(zlib, 'createGzip')
    const answers = [await get('/streamed'), await get('/streamed')]
    expect(gzip).toHaveBeenCalledTimes(2)
    gzip.mockRestore()
    for (const answer of answers) expect(gunzipSync(answer.body).toString()).toBe(pages['/streamed']!.html)
  })
})
