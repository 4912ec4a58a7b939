import type { Block } from 'payload'

import { cityField, layersField } from '@/fields/dashboard'

export const AlertsPanelBlock: Block = {
  slug: 'alertsPanel',
  interfaceName: 'AlertsPanelBlock',
  labels: { singular: 'Alerts panel', plural: 'Alerts panels' },
  fields: [
    { name: 'title', localized: true, type: 'text', required: true, defaultValue: 'Alerts now', maxLength: 120 },
    layersField({ hasMany: true, needsAlertRules: true }),
    {
      name: 'minimumLevel',
      type: 'select',
      defaultValue: 'warning',
      options: [
        { label: 'Info and above', value: 'info' },
        { label: 'Warning and above', value: 'warning' },
        { label: 'Critical only', value: 'critical' },
      ],
    },
    cityField,
  ],
}
