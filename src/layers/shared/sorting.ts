// A feature table's order, the same in the browser and on the server that pages a large layer.
// No Node or framework imports.
import type { Feature } from '@/ngsi'

export type SortDirection = 'ascending' | 'descending'

/** A table cell's value: the feature's id or one of its properties. */
export const cellOf = (feature: Feature, column: string): unknown => (column === 'id' ? feature.id : feature.properties[column])

const isMissing = (value: unknown) => value === null || value === undefined || value === ''

/** The table's order of two cells: numbers before text, missing values last whatever the direction. */
export function compareCells(left: unknown, right: unknown, direction: SortDirection): number {
  const sign = direction === 'ascending' ? 1 : -1
  if (isMissing(left) || isMissing(right)) return Number(isMissing(left)) - Number(isMissing(right))
  if (typeof left === 'number' && typeof right === 'number') return (left - right) * sign
  if (typeof left === 'number') return -1
  if (typeof right === 'number') return 1
  return String(left).localeCompare(String(right), undefined, { numeric: true }) * sign
}

/** Stable: equal cells keep the layer's order. */
export function sortFeatures(features: Feature[], column: string, direction: SortDirection): Feature[] {
  return [...features].sort((a, b) => compareCells(cellOf(a, column), cellOf(b, column), direction))
}
