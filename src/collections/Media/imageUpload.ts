import type { CollectionBeforeOperationHook, SharpDependency } from 'payload'
import sharp from 'sharp'

import { Refusal } from '@/hooks/refusal'

/**
 * Most pixels an uploaded image may decode to (width × height × frames). Payload decodes the whole
 * image to make its sizes: a 12,000 × 12,000 px image (144 Mpx) took the server from 276 to 580 MB.
 * 40 Mpx (about 160 MB as RGBA) holds any camera photo; sharp's own default is 268 Mpx.
 */
export const MAX_IMAGE_PIXELS = 40_000_000

/** The image types Media accepts, by sharp's format name: MIME type, then the extensions that name it (the first is given). */
const IMAGE_TYPES: Record<string, { mime: string; extensions: string[] }> = {
  png: { mime: 'image/png', extensions: ['png'] },
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  webp: { mime: 'image/webp', extensions: ['webp'] },
  avif: { mime: 'image/avif', extensions: ['avif'] },
  gif: { mime: 'image/gif', extensions: ['gif'] },
}

export const IMAGE_MIME_TYPES = Object.values(IMAGE_TYPES).map(({ mime }) => mime)

/** sharp with the pixel cap on every image it opens (Payload's `sharp` option); the hook below refuses bigger ones first. */
export const sharpWithPixelLimit: SharpDependency = (input, options) => sharp(input, { ...options, limitInputPixels: MAX_IMAGE_PIXELS })

export type ImageHeader = { mime: string; extensions: string[]; width: number; height: number; frames: number }

/** sharp's reading of an image's header; undefined for what it cannot read (not an image, an empty file). */
async function headerOf(input: Buffer | string) {
  try {
    // The cap must be judged before anything decodes, so sharp's own limit stays out of it.
    return await sharp(input, { limitInputPixels: false }).metadata()
  } catch {
    return undefined
  }
}

/** The type and size an image's header declares, without decoding its pixels; undefined when it is none of IMAGE_TYPES. */
export async function readImageHeader(input: Buffer | string): Promise<ImageHeader | undefined> {
  const metadata = await headerOf(input)
  if (!metadata?.width || !metadata.height) return undefined
  const format = metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : metadata.format
  const type = IMAGE_TYPES[format]
  if (!type) return undefined
  return { ...type, width: metadata.width, height: metadata.pageHeight ?? metadata.height, frames: metadata.pages ?? 1 }
}

/**
 * `name` with the extension of the type its bytes are: `x.html` → `x.png`, `a.png.html` → `a.png`,
 * `photo` → `photo.jpg`; a right extension is kept (`photo.JPEG`). Folders and control characters go.
 */
export function nameForType(name: string, extensions: string[]): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
  const dot = base.lastIndexOf('.')
  const stem = dot > 0 ? base.slice(0, dot) : base
  const extensionOf = (text: string, at: number) => (at > 0 ? text.slice(at + 1).toLowerCase() : '')
  if (extensions.includes(extensionOf(base, dot))) return base
  if (extensions.includes(extensionOf(stem, stem.lastIndexOf('.')))) return stem
  return `${stem || 'image'}.${extensions[0]}`
}

const typeNames = 'PNG, JPEG, WebP, AVIF or GIF'

/**
 * An uploaded file must be an image of an accepted type whose header declares at most
 * MAX_IMAGE_PIXELS, judged before Payload decodes it; it is stored under the extension of the
 * type its bytes are, whatever its name says (Payload keeps the uploaded name's extension).
 */
export const checkUploadedImage: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const file = req.file
  if ((operation !== 'create' && operation !== 'update') || !file) return args
  const image = await readImageHeader(file.tempFilePath || file.data)
  if (!image) throw new Refusal(`The file is not a ${typeNames} image`)
  const pixels = image.width * image.height * image.frames
  if (pixels > MAX_IMAGE_PIXELS) {
    const size = `${image.width} × ${image.height} px${image.frames > 1 ? ` × ${image.frames} frames` : ''}`
    throw new Refusal(`The image is ${size}; images may have at most ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels`, 413)
  }
  file.name = nameForType(file.name, image.extensions)
  file.mimetype = image.mime
  return args
}
