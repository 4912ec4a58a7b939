import type { LonLat } from './cities'

const EARTH_RADIUS_M = 6_371_008.8

/** Great-circle distance in metres. */
export function distanceMetres([lon1, lat1]: LonLat, [lon2, lat2]: LonLat): number {
  const toRad = Math.PI / 180
  const dLat = (lat2 - lat1) * toRad
  const dLon = (lon2 - lon1) * toRad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Cheap stand-in for distance comparisons within one city (equirectangular, no square root). */
export function planarDistanceSquared([lon1, lat1]: LonLat, [lon2, lat2]: LonLat): number {
  const dx = (lon2 - lon1) * Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180)
  const dy = lat2 - lat1
  return dx * dx + dy * dy
}

/** Even-odd ray casting; points on an edge count as inside for `intersects`' sake. */
export function ringContains(ring: readonly LonLat[], [x, y]: LonLat): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]
    const [xj, yj] = ring[j]
    if (onSegment(ring[j], ring[i], [x, y])) return true
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

function onSegment([ax, ay]: LonLat, [bx, by]: LonLat, [px, py]: LonLat): boolean {
  const cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
  if (Math.abs(cross) > 1e-12) return false
  return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by)
}

/** GeoJSON polygon: the outer ring minus its holes. */
export function polygonContains(rings: readonly (readonly LonLat[])[], point: LonLat): boolean {
  const [outer, ...holes] = rings
  return ringContains(outer, point) && !holes.some((hole) => ringContains(hole, point))
}

export function boundingBox(ring: readonly LonLat[]): { west: number; south: number; east: number; north: number } {
  let west = Infinity
  let south = Infinity
  let east = -Infinity
  let north = -Infinity
  for (const [lon, lat] of ring) {
    west = Math.min(west, lon)
    east = Math.max(east, lon)
    south = Math.min(south, lat)
    north = Math.max(north, lat)
  }
  return { west, south, east, north }
}
