import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

import { MAX_IMAGE_PIXELS, nameForType, readImageHeader, sharpWithPixelLimit } from '@/collections/Media/imageUpload'

import { animatedGif, blackPng } from '../../int/payload/uploadFixtures'

const PNG = ['png']
const JPEG = ['jpg', 'jpeg']

describe('nameForType', () => {
  it.each([
    ['x.html', PNG, 'x.png'],
    ['x.svg', PNG, 'x.png'],
    ['x.htm', PNG, 'x.png'],
    ['x.js', PNG, 'x.png'],
    ['noextension', PNG, 'noextension.png'],
    ['a.png.html', PNG, 'a.png'],
    ['a.html.png', PNG, 'a.html.png'],
    ['photo.JPEG', JPEG, 'photo.JPEG'],
    ['photo.png', JPEG, 'photo.jpg'],
    ['v1.2 map.png', PNG, 'v1.2 map.png'],
    ['.htaccess', PNG, '.htaccess.png'],
    ['dir/../x.html', PNG, 'x.png'],
    ['C:\\fakepath\\x.html', PNG, 'x.png'],
    ['a\u0000.html', PNG, 'a.png'],
    ['\u0000\u001f', PNG, 'image.png'],
  ])('%j as %j → %j', (name, extensions, expected) => {
    expect(nameForType(name, extensions)).toBe(expected)
  })
})

describe('readImageHeader', () => {
  const image = sharp({ create: { width: 30, height: 20, channels: 3, background: '#0b5cad' } })

  it.each([
    ['png', () => image.clone().png().toBuffer(), 'image/png'],
    ['jpeg', () => image.clone().jpeg().toBuffer(), 'image/jpeg'],
    ['webp', () => image.clone().webp().toBuffer(), 'image/webp'],
    ['avif', () => image.clone().avif().toBuffer(), 'image/avif'],
    ['gif', () => image.clone().gif().toBuffer(), 'image/gif'],
  ])('reads a %s as %s', async (_format, make, mime) => {
    expect(await readImageHeader(await make())).toMatchObject({ mime, width: 30, height: 20, frames: 1 })
  })

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')],
    ['HTML', Buffer.from('<!doctype html><title>x</title>')],
    ['empty', Buffer.alloc(0)],
  ])('answers nothing for %s', async (_name, bytes) => {
    expect(await readImageHeader(bytes)).toBeUndefined()
  })

  it('answers nothing for a TIFF (not an accepted type)', async () => {
    expect(await readImageHeader(await image.clone().tiff().toBuffer())).toBeUndefined()
  })

  it('reads the size of a huge image from its header, without decoding it', async () => {
    // Made before measuring: the fixture's own rows (113 MB, deflated to a few hundred kB) are not the reader's.
    const png = blackPng(30_000, 30_000)
    const before = process.memoryUsage().rss
    expect(await readImageHeader(png)).toMatchObject({ mime: 'image/png', width: 30_000, height: 30_000 })
    // 900 Mpx: decoding would take 900 MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024)
  })

  it('counts the frames of an animation', async () => {
    expect(await readImageHeader(animatedGif(2000, 2000, 11))).toMatchObject({ mime: 'image/gif', width: 2000, height: 2000, frames: 11 })
  })
})

describe('sharpWithPixelLimit', () => {
  it(`refuses to decode more than ${MAX_IMAGE_PIXELS} pixels and decodes smaller images`, async () => {
    await expect(sharpWithPixelLimit(blackPng(7000, 7000)).resize(10).toBuffer()).rejects.toThrow(/pixel limit/)
    await expect(sharpWithPixelLimit(blackPng(6000, 6000)).resize(10).png().toBuffer()).resolves.toBeInstanceOf(Buffer)
  })
})
