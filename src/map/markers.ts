/**
 * Marker shapes drawn in the browser as signed-distance-field images (MapLibre `addImage` with
 * `sdf: true`): one image per shape, tinted per feature with `icon-color` and outlined with
 * `icon-halo-*`, so no sprite is downloaded. Circles use MapLibre's circle layer instead (the same
 * look, cheaper for many points). The legend draws the same outlines as SVG.
 */

export const MARKER_SHAPES = ['circle', 'square', 'triangle', 'star'] as const
export type MarkerShape = (typeof MARKER_SHAPES)[number]

export const isMarkerShape = (value: unknown): value is MarkerShape => MARKER_SHAPES.includes(value as MarkerShape)

/** The shape's width in image pixels at `icon-size` 1. */
export const MARKER_SHAPE_PX = 24
/** Room around the shape for the outline (halo): MapLibre's SDF reaches 6 px outside the edge. */
const BUFFER_PX = 8
/** MapLibre's SDF encoding (as TinySDF): alpha 0.75 on the edge, 1/8 per pixel of distance. */
const SDF_EDGE = 0.75
const SDF_RADIUS = 8

export const markerImageId = (shape: MarkerShape) => `citydash-marker-${shape}`

type Point = [number, number]

/** The outline of each shape in a unit box (-1..1, y down), with similar visual weight. */
export function shapeOutline(shape: MarkerShape): Point[] {
  switch (shape) {
    case 'circle':
      return regular(48, 1, 0)
    case 'square':
      return [
        [-0.86, -0.86],
        [0.86, -0.86],
        [0.86, 0.86],
        [-0.86, 0.86],
      ]
    case 'triangle':
      return regular(3, 1.12, -Math.PI / 2).map(([x, y]) => [x, y + 0.22] as Point)
    case 'star':
      return Array.from({ length: 10 }, (_, index) => {
        const radius = index % 2 === 0 ? 1.1 : 0.48
        const angle = -Math.PI / 2 + (index * Math.PI) / 5
        return [radius * Math.cos(angle), radius * Math.sin(angle) + 0.06] as Point
      })
  }
}

function regular(sides: number, radius: number, start: number): Point[] {
  return Array.from({ length: sides }, (_, index) => {
    const angle = start + (index * 2 * Math.PI) / sides
    return [radius * Math.cos(angle), radius * Math.sin(angle)] as Point
  })
}

/** The outline as an SVG path in a `-1.2 -1.2 2.4 2.4` view box (the legend's swatches). */
export const shapePath = (shape: MarkerShape) =>
  `M${shapeOutline(shape)
    .map(([x, y]) => `${x.toFixed(3)} ${y.toFixed(3)}`)
    .join('L')}Z`

function inside(polygon: Point[], x: number, y: number): boolean {
  let result = false
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]
    const [xj, yj] = polygon[j]
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result
  }
  return result
}

function distanceToEdges(polygon: Point[], x: number, y: number): number {
  let best = Infinity
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [ax, ay] = polygon[j]
    const [bx, by] = polygon[i]
    const dx = bx - ax
    const dy = by - ay
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)))
  }
  return best
}

export type MarkerImage = { width: number; height: number; data: Uint8ClampedArray }

/**
 * The shape as an SDF image: RGB white, alpha = 0.75 − (signed distance in px) / 8, clamped.
 * Pure arithmetic (no canvas), so it is the same in every browser and testable in Node.
 */
export function markerImage(shape: MarkerShape): MarkerImage {
  const size = MARKER_SHAPE_PX + 2 * BUFFER_PX
  const scale = MARKER_SHAPE_PX / 2 // unit box → pixels
  const polygon = shapeOutline(shape).map(([x, y]) => [x * scale, y * scale] as Point)
  const data = new Uint8ClampedArray(size * size * 4)
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const x = column + 0.5 - size / 2
      const y = row + 0.5 - size / 2
      const distance = distanceToEdges(polygon, x, y) * (inside(polygon, x, y) ? -1 : 1)
      const offset = (row * size + column) * 4
      data.fill(255, offset, offset + 3)
      data[offset + 3] = Math.round(255 * Math.max(0, Math.min(1, SDF_EDGE - distance / SDF_RADIUS)))
    }
  }
  return { width: size, height: size, data }
}

/** Alert levels differ by outline as well as colour: none a thin white outline; info, warning and critical dark ones of growing width (critical also larger). */
export const ALERT_OUTLINES = {
  none: { colour: '#ffffff', width: 1.5 },
  info: { colour: '#1b1b1f', width: 1 },
  warning: { colour: '#1b1b1f', width: 2 },
  critical: { colour: '#1b1b1f', width: 3.5 },
} as const
