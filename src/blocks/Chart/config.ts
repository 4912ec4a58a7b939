import type { Block, SelectFieldSingleValidation } from 'payload'

import { cityField, layersField, validateChartAttributes } from '@/fields/dashboard'
import { historyAggregations, historyWindows } from '@/layers/shared/history'

const AGGREGATION_LABELS = { avg: 'Average per period', min: 'Minimum per period', max: 'Maximum per period', raw: 'Every reading (one place only)' }
const WINDOW_LABELS = { hour: 'Last hour', day: 'Last 24 hours', week: 'Last 7 days', month: 'Last 30 days' }

export const ChartBlock: Block = {
  slug: 'chart',
  interfaceName: 'ChartBlock',
  labels: { singular: 'Chart', plural: 'Charts' },
  fields: [
    { name: 'title', localized: true, type: 'text', required: true, maxLength: 120 },
    layersField({ hasMany: false }),
    {
      name: 'attributes',
      type: 'text',
      hasMany: true,
      required: true,
      minRows: 1,
      maxRows: 8,
      validate: validateChartAttributes,
      admin: { description: 'Numeric attributes of the layer, e.g. no2 or temperature', components: { Field: '@/fields/LayerAttributeSelect#LayerAttributeSelect' } },
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
