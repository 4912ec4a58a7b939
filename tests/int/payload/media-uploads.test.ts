import { existsSync } from 'node:fs'
import path from 'node:path'

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { env } from '@/env'

import { authHeaders } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'
import { animatedGif, blackPng, mediaForm } from './uploadFixtures'

let app: PayloadApi
let png: Buffer
let jpeg: Buffer
let gif: Buffer

beforeAll(async () => {
  app = await startPayloadApi({ roles: ['editor'] })
  const image = sharp({ create: { width: 400, height: 300, channels: 3, background: '#0b5cad' } })
  ;[png, jpeg, gif] = await Promise.all([image.clone().png().toBuffer(), image.clone().jpeg().toBuffer(), image.clone().gif().toBuffer()])
})

afterAll(() => app?.close())

type MediaDoc = { id: number | string; filename: string; mimeType: string; sizes: Record<string, { filename: string | null }> }

let counter = 0
/** Uploads as an editor would, with a unique alt text to find what was stored. */
async function upload(form: (alt: string) => FormData, method = 'POST', route = '/api/media') {
  const alt = `upload-check-${process.pid}-${++counter}`
  const response = await fetch(`${app.baseUrl}${route}`, { method, headers: authHeaders(app.tokens.editor), body: form(alt) })
  const body = (await response.json()) as { doc?: MediaDoc; errors?: { message: string }[] }
  const stored = await app.payload.count({ collection: 'media', where: { alt: { equals: alt } } })
  return { status: response.status, doc: body.doc, message: body.errors?.[0]?.message, stored: stored.totalDocs }
}

const served = async (filename: string) => {
  const response = await fetch(`${app.baseUrl}/api/media/file/${encodeURIComponent(filename)}`)
  await response.arrayBuffer()
  return { status: response.status, type: response.headers.get('content-type') }
}

describe('an upload is stored under the extension of the type its bytes are', () => {
  it.each([
    ['x.html', 'text/html', /^x(-\d+)?\.png$/],
    ['x.htm', 'text/html', /^x(-\d+)?\.png$/],
    ['x.svg', 'image/svg+xml', /^x(-\d+)?\.png$/],
    ['x.js', 'text/javascript', /^x(-\d+)?\.png$/],
    ['noextension', 'application/octet-stream', /^noextension(-\d+)?\.png$/],
    ['a.png.html', 'text/html', /^a(-\d+)?\.png$/],
    ['photo.png', 'image/png', /^photo(-\d+)?\.png$/],
  ])('a PNG named %s (sent as %s)', async (name, type, stored) => {
    const { status, doc } = await upload((alt) => mediaForm(png, name, type, { alt }))
    expect(status).toBe(201)
    expect(doc?.filename).toMatch(stored)
    expect(doc?.mimeType).toBe('image/png')
    // Its image sizes take the name, and so the extension, too.
    expect(doc?.sizes.thumbnail.filename).toMatch(/\.png$/)
    expect(existsSync(path.resolve(env().MEDIA_DIR, doc!.filename))).toBe(true)
    expect(await served(doc!.filename)).toEqual({ status: 200, type: 'image/png' })
  })

  it('keeps a right extension and corrects a wrong one for JPEG and GIF', async () => {
    expect((await upload((alt) => mediaForm(jpeg, 'holiday.jpeg', 'image/jpeg', { alt }))).doc?.filename).toMatch(/^holiday(-\d+)?\.jpeg$/)
    expect((await upload((alt) => mediaForm(jpeg, 'holiday.png', 'image/png', { alt }))).doc).toMatchObject({ filename: expect.stringMatching(/^holiday(-\d+)?\.jpg$/), mimeType: 'image/jpeg' })
    expect((await upload((alt) => mediaForm(gif, 'anim.gif.html', 'text/html', { alt }))).doc).toMatchObject({ filename: expect.stringMatching(/^anim(-\d+)?\.gif$/), mimeType: 'image/gif' })
  })

  it('renames a replacement file too', async () => {
    const { doc } = await upload((alt) => mediaForm(png, 'first.png', 'image/png', { alt }))
    const replaced = await upload((alt) => mediaForm(jpeg, 'second.html', 'text/html', { alt }), 'PATCH', `/api/media/${doc!.id}`)
    expect(replaced.status).toBe(200)
    expect(replaced.doc).toMatchObject({ filename: expect.stringMatching(/^second(-\d+)?\.jpg$/), mimeType: 'image/jpeg' })
  })

  it.each([
    ['an HTML page named page.png', Buffer.from('<!doctype html><script>alert(1)</script>'), 'page.png'],
    ['an SVG named x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'), 'x.svg'],
    ['a TIFF', null, 'scan.tiff'],
  ])('refuses %s with 400 and stores nothing', async (_name, bytes, filename) => {
    const content = bytes ?? (await sharp(png).tiff().toBuffer())
    const { status, message, stored } = await upload((alt) => mediaForm(content, filename, 'image/png', { alt }))
    expect({ status, stored }).toEqual({ status: 400, stored: 0 })
    expect(message).toMatch(/not a PNG, JPEG, WebP, AVIF or GIF image/)
  })
})

describe('control characters in a file name', () => {
  it('strips a tab, which multipart allows in a file name', async () => {
    const { status, doc } = await upload((alt) => mediaForm(png, 'tab\tbed.png', 'image/png', { alt }))
    expect(status).toBe(201)
    expect(doc?.filename).toMatch(/^tabbed(-\d+)?\.png$/)
  })


  it.each(['a\u0000.png', 'a\u0001b.png', '\u0000'])('%j is refused with 400, nothing stored', async (filename) => {
    const { status, message, stored } = await upload((alt) => mediaForm(png, filename, 'image/png', { alt }))
    expect({ status, stored }).toEqual({ status: 400, stored: 0 })
    expect(message).toMatch(/multipart/)
  })
})

describe('images that decode to more than 40 Mpx are refused before they are decoded', () => {
  it('refuses a 12,000 × 12,000 px PNG (a few kB) with 413 naming the limit, without the memory its pixels would take', async () => {
    const bomb = blackPng(12_000, 12_000)
    const before = process.memoryUsage().rss
    const { status, message, stored } = await upload((alt) => mediaForm(bomb, 'bomb.png', 'image/png', { alt }))
    const growth = process.memoryUsage().rss - before
    expect({ status, stored }).toEqual({ status: 413, stored: 0 })
    expect(message).toMatch(/12000 × 12000 px.*at most 40,000,000 pixels/)
    // Decoding it takes 144 MB at one byte a pixel, more for the resized copies.
    expect(growth).toBeLessThan(60 * 1024 * 1024)
  })

  it('counts every frame of an animation (2000 × 2000 px × 11 frames = 44 Mpx)', async () => {
    const { status, message } = await upload((alt) => mediaForm(animatedGif(2000, 2000, 11), 'long.gif', 'image/gif', { alt }))
    expect(status).toBe(413)
    expect(message).toMatch(/2000 × 2000 px × 11 frames/)
  })

  it('refuses an oversized replacement file', async () => {
    const { doc } = await upload((alt) => mediaForm(png, 'small.png', 'image/png', { alt }))
    const replaced = await upload(() => mediaForm(blackPng(12_000, 12_000), 'big.png'), 'PATCH', `/api/media/${doc!.id}`)
    expect(replaced.status).toBe(413)
    expect((await app.payload.findByID({ collection: 'media', id: doc!.id })).filename).toBe(doc!.filename)
  })
})
