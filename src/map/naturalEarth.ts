import { feature, mesh } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'

/**
 * The bundled basemap's data: Natural Earth 1:50m land (lakes and inland seas are holes in it) and
 * the borders between countries, from the `world-atlas` TopoJSON (public domain). One GeoJSON
 * collection whose features say what they are in `kind`; coordinates rounded to ~10 m.
 */
export function naturalEarthBasemap(land: Topology, countries: Topology): GeoJSON.FeatureCollection {
  const landFeatures = feature(land, land.objects.land as GeometryCollection) as GeoJSON.FeatureCollection
  const borders = mesh(countries, countries.objects.countries as GeometryCollection, (a, b) => a !== b)
  return {
    type: 'FeatureCollection',
    features: [
      ...landFeatures.features.map((item) => ({ type: 'Feature' as const, properties: { kind: 'land' }, geometry: round(item.geometry) })),
      { type: 'Feature', properties: { kind: 'border' }, geometry: round(borders) },
    ],
  }
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000

function round<G extends GeoJSON.Geometry>(geometry: G): G {
  const walk = (value: unknown): unknown =>
    Array.isArray(value) ? (typeof value[0] === 'number' ? value.map((n: number) => round4(n)) : value.map(walk)) : value
  return 'coordinates' in geometry ? { ...geometry, coordinates: walk(geometry.coordinates) } : geometry
}
