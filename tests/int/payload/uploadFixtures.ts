import { crc32, deflateSync } from 'node:zlib'

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A real, fully decodable black PNG of `width` × `height` pixels in a few kilobytes (1-bit grey,
 * rows of zeros deflate to almost nothing): what a decompression bomb looks like.
 */
export function blackPng(width: number, height: number) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 1 // bit depth; colour type 0 (grey), default compression, filter and interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * An animated GIF of `frames` frames on a `width` × `height` canvas in a few hundred bytes: each
 * frame paints one pixel, yet decoding the animation fills the whole canvas once a frame.
 */
export function animatedGif(width: number, height: number, frames: number) {
  const screen = Buffer.alloc(7)
  screen.writeUInt16LE(width, 0)
  screen.writeUInt16LE(height, 2)
  screen[4] = 0x80 // a global colour table of two colours
  const colours = Buffer.from([0, 0, 0, 255, 255, 255])
  const loop = Buffer.concat([Buffer.from([0x21, 0xff, 0x0b]), Buffer.from('NETSCAPE2.0', 'latin1'), Buffer.from([0x03, 0x01, 0, 0, 0])])
  // A 100 ms delay, then a 1 × 1 image at the origin: LZW minimum code size 2, codes clear, 0, end.
  const frame = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00])
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, colours, loop, ...Array<Buffer>(frames).fill(frame), Buffer.from([0x3b])])
}

/** A media upload form as the admin sends it: the file (named and typed as given) and the document's fields. */
export function mediaForm(bytes: Buffer, filename: string, type = 'image/png', fields: Record<string, unknown> = { alt: 'Upload check' }) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename)
  form.append('_payload', JSON.stringify(fields))
  return form
}
