import { describe, expect, it } from 'vitest'

import { MARKER_SHAPE_PX, MARKER_SHAPES, markerImage, shapePath } from '@/map/markers'

/** The SDF value (0..1) at a point given in the shape's own pixels from its centre. */
function sdfAt(shape: (typeof MARKER_SHAPES)[number], x: number, y: number): number {
  const image = markerImage(shape)
  const column = Math.floor(image.width / 2 + x)
  const row = Math.floor(image.height / 2 + y)
  return image.data[(row * image.width + column) * 4 + 3] / 255
}

const INSIDE = 0.75
const half = MARKER_SHAPE_PX / 2

describe('markerImage', () => {
  it('is an RGBA signed distance field with room for a 6 px outline', () => {
    for (const shape of MARKER_SHAPES) {
      const image = markerImage(shape)
      expect(image.data.length).toBe(image.width * image.height * 4)
      expect(image.width).toBeGreaterThanOrEqual(MARKER_SHAPE_PX + 12)
      // The corners are far outside: zero, so halos never reach the image's edge.
      expect(image.data[3]).toBe(0)
      expect(sdfAt(shape, 0, 0)).toBeGreaterThan(INSIDE)
    }
  })

  it('tells the shapes apart where they differ', () => {
    // A square fills its corners; a circle does not.
    expect(sdfAt('square', half - 2.5, half - 2.5)).toBeGreaterThan(INSIDE)
    expect(sdfAt('circle', half - 2.5, half - 2.5)).toBeLessThan(INSIDE)
    // A triangle points up: narrow at the top, wide at the bottom.
    expect(sdfAt('triangle', -half + 4, half - 4)).toBeGreaterThan(INSIDE)
    expect(sdfAt('triangle', -half + 4, -half + 4)).toBeLessThan(INSIDE)
    // A star has gaps between its points.
    expect(sdfAt('star', 0, -half + 1)).toBeGreaterThan(INSIDE)
    expect(sdfAt('star', half * 0.55, -half * 0.55)).toBeLessThan(INSIDE)
  })

  it('falls off by 1/8 per pixel outside the edge, as MapLibre reads halos', () => {
    const edge = sdfAt('square', 0, -half * 0.86 - 0.5)
    const fourOut = sdfAt('square', 0, -half * 0.86 - 4.5)
    expect(edge).toBeCloseTo(0.75, 1)
    expect(edge - fourOut).toBeCloseTo(0.5, 1)
  })
})

describe('shapePath', () => {
  it('is a closed SVG path for every shape', () => {
    for (const shape of MARKER_SHAPES) expect(shapePath(shape)).toMatch(/^M-?\d.*Z$/)
    expect(shapePath('star').split('L')).toHaveLength(10)
  })
})
