// Entities as flat table rows: one scalar cell per column, compound values spread into
// dotted columns (address.streetAddress), lists joined, geometries summarised.

import { isGeometryLike } from './geojson'
import type { NormalizedEntity, PlainValue } from './normalize'

export type Cell = string | number | boolean | null

const MAX_DEPTH = 3

function spread(row: Record<string, Cell>, column: string, value: PlainValue, depth: number): void {
  if (value === null || typeof value !== 'object') {
    row[column] = value
  } else if (isGeometryLike(value)) {
    const { type, coordinates } = value
    row[column] = type === 'Point' && Array.isArray(coordinates) ? `${coordinates.slice(0, 2).join(', ')}` : type
  } else if (Array.isArray(value)) {
    row[column] = value.every((item) => item === null || typeof item !== 'object') ? value.join(', ') : JSON.stringify(value)
  } else if (depth >= MAX_DEPTH) {
    row[column] = JSON.stringify(value)
  } else {
    for (const [key, item] of Object.entries(value)) spread(row, `${column}.${key}`, item, depth + 1)
  }
}

/** id, type, observedAt and the (chosen) attributes as scalar cells. */
export function flattenRecord(entity: NormalizedEntity, options: { attributes?: readonly string[] } = {}): Record<string, Cell> {
  const row: Record<string, Cell> = { id: entity.id, type: entity.type, observedAt: entity.observedAt ?? null }
  for (const name of options.attributes ?? Object.keys(entity.attributes)) {
    const attribute = entity.attributes[name]
    spread(row, name, attribute ? attribute.value : null, 0)
  }
  return row
}
