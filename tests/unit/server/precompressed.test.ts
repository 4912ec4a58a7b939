import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { chooseEncoding, loadPrecompressedAssets, MANIFEST_FILE, PRECOMPRESSED_DIR, type PrecompressedManifest } from '@/server/precompressed'
import { MAPLIBRE_FILE, MAPLIBRE_WORKER_FILE } from '@/map/maplibreFiles'

import { precompressAssets } from '../../../scripts/precompress'

describe('chooseEncoding', () => {
  it('prefers brotli when the client likes both alike, and follows the client when it does not', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br')
    expect(chooseEncoding('*', ['br', 'gzip'])).toBe('br')
    expect(chooseEncoding('gzip;q=1, br;q=0.5', ['br', 'gzip'])).toBe('gzip')
    expect(chooseEncoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip')
    expect(chooseEncoding('gzip', ['br', 'gzip'])).toBe('gzip')
  })

  it('chooses nothing when the client takes none of what there is', () => {
    expect(chooseEncoding(undefined, ['br', 'gzip'])).toBeUndefined()
    expect(chooseEncoding('', ['br', 'gzip'])).toBeUndefined()
    expect(chooseEncoding('identity', ['br', 'gzip'])).toBeUndefined()
    expect(chooseEncoding('deflate', ['br', 'gzip'])).toBeUndefined()
    expect(chooseEncoding('br', ['gzip'])).toBeUndefined()
    expect(chooseEncoding('*;q=0', ['br', 'gzip'])).toBeUndefined()
  })
})

/** A fake standalone build: Next's static files as the standalone server holds them. */
function standaloneWith(files: Record<string, string | Buffer>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'citydash-precompress-'))
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, '.next', 'static', name)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
  return dir
}

/** A server that answers what the assets answer, and `next` for everything left to Next. */
async function serve(assets: NonNullable<Awaited<ReturnType<typeof loadPrecompressedAssets>>>) {
  const server = http.createServer((request, response) => {
    if (!assets.answer(request, response)) response.writeHead(200, { 'content-type': 'text/plain' }).end('next')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  /** Raw bytes as sent (fetch would undo the encoding), to the path as written (a URL would resolve its dots). */
  const get = (pathname: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: pathname, method, headers }, (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }))
      })
      request.on('error', reject)
      request.end()
    })
  return { get, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const chunk = `self.webpackChunk=${JSON.stringify('x'.repeat(5000))};console.log("é ✓ 𝄞")`
const styles = `.map{color:red}\n`.repeat(200)

describe('precompressed static answers: the build step and the server hook together', () => {
  let standalone: string
  let outDir: string
  let server: Awaited<ReturnType<typeof serve>>

  beforeAll(async () => {
    standalone = standaloneWith({
      'chunks/app/(frontend)/[slug]/page-abc.js': chunk,
      'css/site.css': styles,
      'chunks/tiny.js': 'self.a=1',
      'media/logo.woff2': Buffer.alloc(4000, 7),
    })
    await precompressAssets(standalone)
    outDir = path.join(standalone, PRECOMPRESSED_DIR)
    server = await serve((await loadPrecompressedAssets(outDir))!)
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    rmSync(standalone, { recursive: true, force: true })
  })

  it('lists Next static files, MapLibre and its worker, each once per encoding', () => {
    const manifest = JSON.parse(readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as PrecompressedManifest
    expect(Object.keys(manifest).sort()).toEqual(['/_next/static/chunks/app/(frontend)/[slug]/page-abc.js', '/_next/static/css/site.css', '/vendor/maplibre-gl.mjs', '/vendor/maplibre-gl-worker.mjs'].sort())
    // Files too small to gain, and types that are not text, are left to Next.
    expect(manifest['/_next/static/chunks/tiny.js']).toBeUndefined()
    expect(manifest['/_next/static/css/site.css']).toMatchObject({ type: 'text/css; charset=UTF-8', cacheControl: 'public, max-age=31536000, immutable' })
    for (const vendor of ['/vendor/maplibre-gl.mjs', '/vendor/maplibre-gl-worker.mjs']) {
      expect(manifest[vendor]).toMatchObject({ type: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' })
    }
  })

  it('sends the bytes each encoding was made from, as the browser asks for them', async () => {
    for (const [pathname, original] of [
      // As a browser asks for a chunk under a dynamic segment: the brackets percent-encoded.
      ['/_next/static/chunks/app/(frontend)/%5Bslug%5D/page-abc.js', Buffer.from(chunk)],
      ['/_next/static/css/site.css', Buffer.from(styles)],
      ['/vendor/maplibre-gl.mjs?v=6.17.0', readFileSync(MAPLIBRE_FILE)],
      ['/vendor/maplibre-gl-worker.mjs?v=6.17.0', readFileSync(MAPLIBRE_WORKER_FILE)],
    ] as const) {
      const br = await server.get(pathname, { 'accept-encoding': 'gzip, deflate, br' })
      expect(br.status, pathname).toBe(200)
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.headers.vary).toBe('Accept-Encoding')
      expect(Number(br.headers['content-length'])).toBe(br.body.length)
      expect(br.body.length).toBeLessThan(original.length)
      expect(brotliDecompressSync(br.body).equals(original), pathname).toBe(true)

      const gzip = await server.get(pathname, { 'accept-encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(gzip.body).equals(original), pathname).toBe(true)
      expect(gzip.headers.etag).not.toBe(br.headers.etag)
    }
  })

  it('answers a copy the client holds with 304, and HEAD with the headers alone', async () => {
    const first = await server.get('/_next/static/css/site.css', { 'accept-encoding': 'br' })
    const again = await server.get('/_next/static/css/site.css', { 'accept-encoding': 'br', 'if-none-match': `"other", W/${first.headers.etag}` })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
    expect(again.headers.etag).toBe(first.headers.etag)
    // The gzip copy is another representation: the brotli ETag does not stand for it.
    expect((await server.get('/_next/static/css/site.css', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag! })).status).toBe(200)

    const head = await server.get('/_next/static/css/site.css', { 'accept-encoding': 'br' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(first.headers['content-length'])
  })

  it('leaves to Next what it did not precompress or cannot send as asked', async () => {
    for (const [pathname, headers, method] of [
      ['/_next/static/css/site.css', {}, 'GET'],
      ['/_next/static/css/site.css', { 'accept-encoding': 'identity' }, 'GET'],
      ['/_next/static/css/site.css', { 'accept-encoding': 'br' }, 'POST'],
      ['/_next/static/chunks/tiny.js', { 'accept-encoding': 'br' }, 'GET'],
      ['/_next/static/css/../css/site.css', { 'accept-encoding': 'br' }, 'GET'],
      ['/_next/static/css/site.css.br', { 'accept-encoding': 'br' }, 'GET'],
      ['/manifest.json', { 'accept-encoding': 'br' }, 'GET'],
      ['/_next/static/%E0%A4%A/site.css', { 'accept-encoding': 'br' }, 'GET'],
      ['/_next/static/CSS/site.css', { 'accept-encoding': 'br' }, 'GET'],
    ] as const) {
      const answer = await server.get(pathname, headers, method)
      expect(answer.body.toString(), `${method} ${pathname} ${JSON.stringify(headers)}`).toBe('next')
    }
  })

  it('drops an asset whose file went missing or changed since the build, and loads nothing without a manifest', async () => {
    const damaged = standaloneWith({ 'css/a.css': styles, 'css/b.css': styles.replace('red', 'blue') })
    try {
      await precompressAssets(damaged)
      const dir = path.join(damaged, PRECOMPRESSED_DIR)
      rmSync(path.join(dir, '_next/static/css/a.css.br'))
      truncateSync(path.join(dir, '_next/static/css/b.css.br'), 10)
      const assets = (await loadPrecompressedAssets(dir))!
      const check = await serve(assets)
      try {
        // a.css has its gzip copy still; b.css's brotli copy is not what was listed.
        expect((await check.get('/_next/static/css/a.css', { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('gzip')
        expect((await check.get('/_next/static/css/b.css', { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('gzip')
        expect((await check.get('/_next/static/css/a.css', { 'accept-encoding': 'br' })).body.toString()).toBe('next')
      } finally {
        await check.close()
      }
      expect(await loadPrecompressedAssets(path.join(damaged, 'nowhere'))).toBeUndefined()
    } finally {
      rmSync(damaged, { recursive: true, force: true })
    }
  }, 60_000)
})
