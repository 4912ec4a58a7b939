import type { Block } from 'payload'

import { cityField, layersField, validateStatisticAttribute } from '@/fields/dashboard'
import { STATISTICS } from '@/layers/shared/statistics'

export const KpiCardBlock: Block = {
  slug: 'kpiCard',
  interfaceName: 'KpiCardBlock',
  labels: { singular: 'KPI card', plural: 'KPI cards' },
  fields: [
    { name: 'label', localized: true, type: 'text', required: true, maxLength: 80 },
    layersField({ hasMany: false }),
    {
      type: 'row',
      fields: [
        {
          name: 'statistic',
          type: 'select',
          required: true,
          defaultValue: 'average',
          options: STATISTICS.map((value) => ({ label: value[0].toUpperCase() + value.slice(1), value })),
        },
        {
          name: 'attribute',
          type: 'text',
          validate: validateStatisticAttribute,
          admin: {
            condition: (_, sibling) => sibling?.statistic !== 'count',
            description: 'One of the layer’s numeric attributes',
            components: { Field: '@/fields/LayerAttributeSelect#LayerAttributeSelect' },
          },
        },
        { name: 'unit', type: 'text', maxLength: 16, admin: { description: 'Empty: the unit the broker gives' } },
      ],
    },
    cityField,
  ],
}
