import type { Block } from 'payload'

import { cityField, layersField } from '@/fields/dashboard'

export const MapViewBlock: Block = {
  slug: 'mapView',
  interfaceName: 'MapViewBlock',
  labels: { singular: 'Map view', plural: 'Map views' },
  fields: [
    { name: 'title', localized: true, type: 'text', required: true, maxLength: 120 },
    cityField,
    layersField({ hasMany: true }),
    {
      type: 'row',
      fields: [
        { name: 'latitude', type: 'number', min: -90, max: 90, admin: { description: "Centre; empty: the city's" } },
        { name: 'longitude', type: 'number', min: -180, max: 180 },
        { name: 'zoom', type: 'number', min: 0, max: 22 },
      ],
    },
    {
      name: 'height',
      type: 'select',
      defaultValue: 'medium',
      options: [
        { label: 'Small (320 px)', value: 'small' },
        { label: 'Medium (480 px)', value: 'medium' },
        { label: 'Large (640 px)', value: 'large' },
      ],
    },
    {
      type: 'row',
      fields: [
        { name: 'legend', type: 'checkbox', defaultValue: true, label: 'Show the legend and layer toggles' },
        {
          name: 'showTable',
          type: 'checkbox',
          defaultValue: false,
          label: 'Offer "show as table"',
          admin: { description: 'The button is now offered under every map: its table is how keyboard and screen-reader users reach the places.' },
        },
      ],
    },
  ],
}
