// RFC 4180 CSV of a layer's features: id, the columns, longitude and latitude (point geometries),
// written a batch of rows at a time: the server streams a large layer's rows as it reads them.
// No Node or framework imports.
import type { Feature } from '@/ngsi'

// Spreadsheet apps run cells that start with these as formulas (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/

/** One RFC 4180 CSV cell; text that a spreadsheet would run as a formula is quoted with '. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The CSV's first line. */
export const csvHeader = (columns: string[]): string => ['id', ...columns, 'longitude', 'latitude'].map(csvCell).join(',') + '\r\n'

/** The CSV lines of these features, each ended by CRLF. */
export function csvRows(features: Feature[], columns: string[]): string {
  let text = ''
  for (const feature of features) {
    const point = feature.geometry.type === 'Point' ? (feature.geometry.coordinates as number[]) : []
    text += [feature.id, ...columns.map((column) => feature.properties[column]), point[0], point[1]].map(csvCell).join(',') + '\r\n'
  }
  return text
}
