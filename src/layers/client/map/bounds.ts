// Pure map geometry: the box around a layer's features (the first view fits it) and the area of a
// city an address search is bounded to.
import type { Feature, Position } from '@/ngsi'

/** [west, south, east, north] in degrees. */
export type Box = [number, number, number, number]

/** How a first view fits the data. */
export const FIT_OPTIONS = { padding: 40, maxZoom: 16 }

const positionsOf = (coordinates: unknown): Position[] => {
  if (!Array.isArray(coordinates)) return []
  if (coordinates.length >= 2 && typeof coordinates[0] === 'number') return [coordinates as Position]
  return coordinates.flatMap(positionsOf)
}

const plausible = ([lon, lat]: Position) => Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90

/** The smallest box holding every position of the features; undefined without any. */
export function boxOfFeatures(features: Feature[]): Box | undefined {
  let box: Box | undefined
  for (const feature of features) {
    for (const position of positionsOf(feature.geometry?.coordinates)) {
      if (!plausible(position)) continue
      const [lon, lat] = position
      box = box ? [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)] : [lon, lat, lon, lat]
    }
  }
  return box
}

/** Boxes together; undefined when none is given. */
export function unionOf(boxes: (Box | undefined)[]): Box | undefined {
  const given = boxes.filter((box): box is Box => Boolean(box))
  if (given.length === 0) return undefined
  return [Math.min(...given.map((b) => b[0])), Math.min(...given.map((b) => b[1])), Math.max(...given.map((b) => b[2])), Math.max(...given.map((b) => b[3]))]
}

/** Half the side of a city's area around its centre, in degrees of latitude (about 17 km). */
export const CITY_RADIUS_DEGREES = 0.15
/** The widest area a search is bounded to (the geocode route refuses more). */
export const MAX_AREA_DEGREES = 5

/**
 * The area of a city for the address search: its centre give or take CITY_RADIUS_DEGREES (longitude
 * degrees widened by the latitude), grown to hold the layers' data, never wider than MAX_AREA_DEGREES.
 */
export function cityArea(center: { latitude: number; longitude: number }, data?: Box): Box {
  const { latitude, longitude } = center
  const lonRadius = Math.min(CITY_RADIUS_DEGREES / Math.max(Math.cos((latitude * Math.PI) / 180), 0.2), 1)
  const around: Box = [longitude - lonRadius, latitude - CITY_RADIUS_DEGREES, longitude + lonRadius, latitude + CITY_RADIUS_DEGREES]
  // Data far from the centre (another city's layer, a misplaced station) does not stretch the area past the limit.
  const both = data && data[2] - data[0] <= MAX_AREA_DEGREES - 2 * lonRadius && data[3] - data[1] <= MAX_AREA_DEGREES - 2 * CITY_RADIUS_DEGREES ? unionOf([around, data])! : around
  const half = MAX_AREA_DEGREES / 2
  const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high)
  return [
    clamp(Math.max(both[0], longitude - half), -180, 180),
    clamp(Math.max(both[1], latitude - half), -90, 90),
    clamp(Math.min(both[2], longitude + half), -180, 180),
    clamp(Math.min(both[3], latitude + half), -90, 90),
  ]
}

/** A box as the geocode route's `bbox` parameter. */
export const boxParameter = (box: Box) => box.map((value) => String(Math.round(value * 1e5) / 1e5)).join(',')

/** A single place (or points on a line) still needs an area to fit: a little box around it. */
export function fittable(box: Box, minimumDegrees = 0.002): Box {
  const [west, south, east, north] = box
  const padLon = Math.max(0, (minimumDegrees - (east - west)) / 2)
  const padLat = Math.max(0, (minimumDegrees - (north - south)) / 2)
  return [west - padLon, south - padLat, east + padLon, north + padLat]
}
