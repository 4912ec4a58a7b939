// RFC 4180 CSV of a layer's features: id, the place's name, its observation time, the columns,
// longitude and latitude (point geometries), written a batch of rows at a time: the server streams a
// large layer's rows as it reads them. Headers are the attributes' labels; values stay as the
// machine wrote them (a point as decimal separator, fractions as fractions, ISO 8601 times).
// No Node or framework imports.
import type { Feature } from '@/ngsi'

import { featureName } from './format'
import type { Presentation } from './presentation'

// Spreadsheet apps run cells that start with these as formulas (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/

/** One RFC 4180 CSV cell; text that a spreadsheet would run as a formula is quoted with '. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

// Every row carries these two first: the columns asked for leave them out.
const PLACE_COLUMNS = ['name', 'observedAt']
const valueColumns = (columns: string[]) => columns.filter((column) => !PLACE_COLUMNS.includes(column))

/** The CSV's first line: the attributes' labels (with units) when a presentation is given, else their names. */
export function csvHeader(columns: string[], presentation?: Presentation): string {
  const label = (column: string) => (presentation ? presentation.columnLabel(column) : column)
  return ['id', ...PLACE_COLUMNS.map(label), ...valueColumns(columns).map(label), 'longitude', 'latitude'].map(csvCell).join(',') + '\r\n'
}

/** The CSV lines of these features, each ended by CRLF: id, the place's name (else its id) and observation time, then the columns. */
export function csvRows(features: Feature[], columns: string[]): string {
  const values = valueColumns(columns)
  let text = ''
  for (const feature of features) {
    const point = feature.geometry.type === 'Point' ? (feature.geometry.coordinates as number[]) : []
    const observedAt = typeof feature.properties.observedAt === 'string' ? feature.properties.observedAt : ''
    text += [feature.id, featureName(feature), observedAt, ...values.map((column) => feature.properties[column]), point[0], point[1]].map(csvCell).join(',') + '\r\n'
  }
  return text
}
