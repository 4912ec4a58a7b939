import type { Locator } from 'playwright-core'
import sharp from 'sharp'

export type Hit = { x: number; y: number }

const parse = (hex: string) => [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16))

/**
 * Where an element's rendered pixels match a colour (within a tolerance): proves the map's
 * canvas drew the markers, not just that the DOM exists. Points are relative to the element.
 */
export async function pixelsOfColour(element: Locator, hex: string, tolerance = 24): Promise<Hit[]> {
  const png = await element.screenshot()
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const [red, green, blue] = parse(hex)
  const hits: Hit[] = []
  for (let offset = 0; offset < data.length; offset += info.channels) {
    if (Math.abs(data[offset] - red) <= tolerance && Math.abs(data[offset + 1] - green) <= tolerance && Math.abs(data[offset + 2] - blue) <= tolerance) {
      const pixel = offset / info.channels
      hits.push({ x: pixel % info.width, y: Math.floor(pixel / info.width) })
    }
  }
  return hits
}

/** The centre of the densest small patch of hits: a marker, not an antialiased edge. */
export function markerCentre(hits: Hit[]): Hit | undefined {
  let best: { hit: Hit; count: number } | undefined
  for (const hit of hits.filter((_, index) => index % 7 === 0)) {
    const count = hits.filter((other) => Math.abs(other.x - hit.x) <= 3 && Math.abs(other.y - hit.y) <= 3).length
    if (!best || count > best.count) best = { hit, count }
  }
  return best?.hit
}
