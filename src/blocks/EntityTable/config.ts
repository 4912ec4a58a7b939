import type { Block } from 'payload'

import { cityField, layersField, validateColumnAttributes } from '@/fields/dashboard'

export const EntityTableBlock: Block = {
  slug: 'entityTable',
  interfaceName: 'EntityTableBlock',
  labels: { singular: 'Entity table', plural: 'Entity tables' },
  fields: [
    { name: 'title', localized: true, type: 'text', required: true, maxLength: 120 },
    layersField({ hasMany: false }),
    {
      name: 'columns',
      type: 'text',
      hasMany: true,
      validate: validateColumnAttributes,
      admin: { description: 'Attributes to show, in order; empty: all the layer’s attributes', components: { Field: '@/fields/LayerAttributeSelect#LayerAttributeSelect' } },
    },
    { name: 'pageSize', type: 'number', min: 5, max: 200, defaultValue: 20 },
    cityField,
  ],
}
