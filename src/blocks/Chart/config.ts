import type { Block, SelectFieldSingleValidation, TextFieldManyValidation } from 'payload'

import { cityField, layersField } from '@/fields/dashboard'
import { historyAggregations, historyWindows } from '@/layers/shared/history'
import { ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE } from '@/ngsi'

const AGGREGATION_LABELS = { avg: 'Average per period', min: 'Minimum per period', max: 'Maximum per period', raw: 'Every reading (one place only)' }
const WINDOW_LABELS = { hour: 'Last hour', day: 'Last 24 hours', week: 'Last 7 days', month: 'Last 30 days' }

/** Attribute names, and each one of the chosen layer's (only those leave the server, so only those can be charted). */
const validateAttributes: TextFieldManyValidation = async (value, { req, siblingData }) => {
  if (!value?.length) return 'Which attributes to chart?'
  const bad = value.find((name) => !ATTRIBUTE_NAME.test(name))
  if (bad !== undefined) return `"${bad}": ${ATTRIBUTE_NAME_RULE}`
  const chosen = (siblingData as { layer?: unknown }).layer
  const layerId = typeof chosen === 'object' && chosen !== null ? (chosen as { id?: unknown }).id : chosen
  if (typeof layerId !== 'string' && typeof layerId !== 'number') return true
  const layer = await req.payload.findByID({ collection: 'map-layers', id: layerId, depth: 0, disableErrors: true, req })
  const known = layer?.attributes ?? []
  const unknown = value.filter((name) => !known.includes(name))
  if (!layer || unknown.length === 0) return true
  return `Not an attribute of "${layer.name}": ${unknown.join(', ')}. Its attributes: ${known.join(', ') || 'none'} (chart the numeric ones).`
}

export const ChartBlock: Block = {
  slug: 'chart',
  interfaceName: 'ChartBlock',
  labels: { singular: 'Chart', plural: 'Charts' },
  fields: [
    { name: 'title', type: 'text', required: true, maxLength: 120 },
    layersField({ hasMany: false }),
    {
      name: 'attributes',
      type: 'text',
      hasMany: true,
      required: true,
      minRows: 1,
      maxRows: 8,
      validate: validateAttributes,
      admin: { description: 'Numeric attributes of the layer, e.g. no2 or temperature' },
    },
    {
      type: 'row',
      fields: [
        { name: 'window', type: 'select', required: true, defaultValue: 'day', options: historyWindows.map((value) => ({ label: WINDOW_LABELS[value], value })) },
        {
          name: 'aggregation',
          type: 'select',
          required: true,
          defaultValue: 'avg',
          options: historyAggregations.map((value) => ({ label: AGGREGATION_LABELS[value], value })),
          validate: ((value, { siblingData }) =>
            value === 'raw' && !(siblingData as { entity?: string }).entity ? 'Every reading needs one place: fill in the entity' : true) satisfies SelectFieldSingleValidation,
        },
      ],
    },
    {
      name: 'entity',
      type: 'text',
      maxLength: 1024,
      admin: { description: 'Empty: all places of the layer together. Or one entity id of the layer (urn:ngsi-ld:…), as its history link shows.' },
    },
    cityField,
  ],
}
