import type { CollectionConfig, Field } from 'payload'

import { isStaff, memberAdmin, memberFieldAccess, readLayerAccess } from '@/access'
import { ALERT_LEVELS, ALERT_OPERATOR_LABELS, ALERT_OPERATORS } from '@/alerts'
import { draftWithAiField } from '@/collections/AiDrafts/fields'
import { cityFieldOf } from '@/fields/dashboard'
import { comparisonOperatorNames, comparisonOperatorSymbols } from '@/ngsi'

import { brokerPreviewEndpoint, brokerTypesEndpoint } from '@/layers/entry/brokerEndpoints'
import { liveStatusEndpoint } from '@/layers/entry/liveStatusEndpoint'
import { eraseAlertSubscriptions } from '@/notices/entry/layerDeleted'
import { deleteLiveSubscriptions, syncLiveSubscriptions } from '@/layers/entry/layerSubscriptions'
import { validateAgainstBroker } from '@/layers/entry/brokerValidation'
import { ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE, HEX_COLOUR, HEX_COLOUR_RULE } from '@/ngsi/names'

import { validContextUrl, validEntityType, validThrottleSeconds, matches } from '@/layers/entry/fieldValidators'

const attributeNames = (value: unknown): true | string =>
  value === null || value === undefined || (Array.isArray(value) && value.every((name) => typeof name === 'string' && ATTRIBUTE_NAME.test(name)))
    ? true
    : `Attribute names: ${ATTRIBUTE_NAME_RULE}`

// Citizens read a layer's name, description and style; where its data comes from, what it
// filters and its rules are for members (the server reads them with overrideAccess).
const membersOnly = { read: memberFieldAccess }

// Attributes are picked, not typed: the layer's from the broker's (with a sample value and unit
// each), the others from the layer's own.
const BROKER_ATTRIBUTES = '@/collections/MapLayers/components/AttributeFields#BrokerAttributesField'
const LAYER_ATTRIBUTES = '@/collections/MapLayers/components/AttributeFields#LayerAttributesField'

const attributeField = (name: string, label: string, description?: string): Field => ({
  name,
  label,
  type: 'text',
  required: true,
  validate: matches(ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE),
  admin: { components: { Field: LAYER_ATTRIBUTES }, description },
})

export const MapLayers: CollectionConfig = {
  slug: 'map-layers',
  labels: { singular: 'Map layer', plural: 'Map layers' },
  access: {
    admin: memberAdmin,
    create: isStaff,
    read: readLayerAccess,
    update: isStaff,
    delete: isStaff,
  },
  admin: {
    useAsTitle: 'name',
    group: 'City data',
    defaultColumns: ['name', 'entityType', 'public', 'refreshSeconds', 'updatedAt'],
  },
  endpoints: [brokerTypesEndpoint, brokerPreviewEndpoint, liveStatusEndpoint],
  hooks: { beforeChange: [validateAgainstBroker], afterChange: [syncLiveSubscriptions], beforeDelete: [eraseAlertSubscriptions], afterDelete: [deleteLiveSubscriptions] },
  fields: [
    // What citizens read of a layer is per locale; its source, attributes and rules are shared.
    { name: 'name', type: 'text', required: true, localized: true, maxLength: 80 },
    { name: 'description', type: 'textarea', localized: true, maxLength: 1000 },
    draftWithAiField({ name: 'describeWithAi', task: 'layer-description', field: 'description' }),
    {
      name: 'public',
      type: 'checkbox',
      defaultValue: true,
      admin: { description: 'Citizens may load this layer. Unticked layers are only visible to signed-in members.' },
    },
    {
      name: 'entityType',
      access: membersOnly,
      type: 'text',
      required: true,
      maxLength: 200,
      validate: validEntityType,
      admin: { components: { Field: '@/collections/MapLayers/components/EntityTypeField#EntityTypeField' } },
    },
    {
      name: 'attributes',
      access: membersOnly,
      type: 'text',
      hasMany: true,
      required: true,
      maxRows: 30,
      validate: attributeNames,
      admin: {
        description: 'Picked from the broker’s attributes of the type. Only these leave the server (plus id, type, location and observation time).',
        components: { Field: BROKER_ATTRIBUTES },
      },
    },
    {
      name: 'textAttributes',
      label: 'Attributes holding text',
      access: membersOnly,
      type: 'text',
      hasMany: true,
      maxRows: 30,
      validate: attributeNames,
      admin: {
        description:
          'Those of the attributes above whose values are text, not numbers: KPI statistics and charts refuse them. Filled from the broker’s sample when attributes are picked.',
        components: { Field: LAYER_ATTRIBUTES },
      },
    },
    {
      name: 'popupAttributes',
      access: membersOnly,
      type: 'text',
      hasMany: true,
      maxRows: 10,
      validate: attributeNames,
      admin: { description: 'Shown in the map popup, in this order; each one of the attributes above.', components: { Field: LAYER_ATTRIBUTES } },
    },
    {
      name: 'attributeDisplay',
      label: 'How attributes are shown',
      labels: { singular: 'Attribute', plural: 'Attributes' },
      type: 'array',
      maxRows: 30,
      admin: {
        description:
          'What citizens read for an attribute on maps, tables, cards, charts, alerts and downloads: its name, unit and how its values are written. Attributes without a row show their name made readable (airQualityLevel → “Air quality level”) and their values as numbers.',
        initCollapsed: true,
        components: { RowLabel: '@/collections/MapLayers/components/AttributeDisplayRowLabel#AttributeDisplayRowLabel' },
      },
      fields: [
        {
          type: 'row',
          fields: [
            attributeField('attribute', 'Attribute', 'One of the layer’s attributes; one row each.'),
            {
              name: 'label',
              type: 'text',
              localized: true,
              maxLength: 80,
              admin: { description: 'What citizens read instead of the attribute’s name, e.g. “NO₂” or “Air quality”.' },
            },
            {
              name: 'unit',
              type: 'text',
              maxLength: 20,
              admin: { description: 'Written after the numbers, e.g. µg/m³. Empty: the unit the broker gives (its unitCode).' },
            },
          ],
        },
        {
          type: 'row',
          fields: [
            {
              name: 'format',
              type: 'select',
              required: true,
              defaultValue: 'number',
              options: [
                { label: 'Number', value: 'number' },
                { label: 'Percentage (value is a fraction 0–1)', value: 'percent' },
                { label: 'Whole number', value: 'integer' },
                { label: 'Text', value: 'text' },
              ],
              admin: { description: 'Number: in the reader’s language (decimal comma in Spanish). Percentage: 0.08 is shown as 8 %. Text: shown as it is, or by the labels below.' },
            },
            {
              name: 'decimals',
              type: 'number',
              min: 0,
              max: 6,
              admin: { description: 'Digits after the decimal separator (0–6). Empty: fewer as numbers grow (12.34, 123.4, 1234).', step: 1 },
            },
          ],
        },
        {
          name: 'valueLabels',
          label: 'Value labels',
          labels: { singular: 'Value label', plural: 'Value labels' },
          type: 'array',
          maxRows: 30,
          admin: { description: 'For attributes with a few possible values (good, moderate, unhealthy…): what citizens read for each.', initCollapsed: true },
          fields: [
            {
              type: 'row',
              fields: [
                { name: 'value', type: 'text', required: true, maxLength: 100, admin: { description: 'The value as the broker sends it, e.g. unhealthyForSensitiveGroups.' } },
                {
                  name: 'label',
                  type: 'text',
                  localized: true,
                  maxLength: 100,
                  admin: { description: 'What citizens read, e.g. “Unhealthy for sensitive groups”. Empty (e.g. not yet translated): the value made readable.' },
                },
              ],
            },
          ],
        },
      ],
    },
    {
      name: 'brokerPreview',
      type: 'ui',
      admin: { components: { Field: '@/collections/MapLayers/components/BrokerPreview#BrokerPreview' } },
    },
    {
      name: 'liveStatus',
      type: 'ui',
      admin: { components: { Field: '@/collections/MapLayers/components/LiveStatus#LiveStatus' } },
    },
    {
      name: 'source',
      access: membersOnly,
      type: 'group',
      fields: [
        cityFieldOf('tenant', 'Fixes the layer to one city of Site settings → Cities. Empty: the city the page shows.'),
        {
          name: 'contextUrl',
          label: '@context URL',
          type: 'text',
          validate: validContextUrl,
          admin: {
            description: 'Empty: the server default (NGSI_LD_CONTEXT_URL). Sent to the broker, which may fetch it: no private hosts.',
          },
        },
        {
          name: 'filters',
          type: 'array',
          maxRows: 10,
          admin: { description: 'Only entities matching every row (sent to the broker as an escaped q query).' },
          fields: [
            {
              type: 'row',
              fields: [
                attributeField('attribute', 'Attribute'),
                {
                  name: 'operator',
                  type: 'select',
                  required: true,
                  defaultValue: 'eq',
                  options: comparisonOperatorNames.map((name) => ({ label: comparisonOperatorSymbols[name], value: name })),
                },
                { name: 'value', type: 'text', required: true, maxLength: 200 },
              ],
            },
          ],
        },
      ],
    },
    {
      name: 'style',
      type: 'group',
      fields: [
        {
          type: 'row',
          fields: [
            {
              name: 'colour',
              type: 'text',
              defaultValue: '#0b5cad',
              validate: matches(HEX_COLOUR, HEX_COLOUR_RULE),
            },
            { name: 'radius', type: 'number', defaultValue: 6, min: 2, max: 30 },
            {
              name: 'icon',
              type: 'select',
              defaultValue: 'circle',
              options: ['circle', 'square', 'triangle', 'star'].map((value) => ({ label: value, value })),
            },
          ],
        },
        draftWithAiField({ name: 'suggestColourWithAi', task: 'colour-suggestion', field: 'style.colour' }),
        {
          name: 'colourBy',
          type: 'select',
          defaultValue: 'style',
          options: [
            { label: 'The colour above', value: 'style' },
            { label: 'Alert level', value: 'alert' },
          ],
        },
        {
          name: 'cluster',
          type: 'checkbox',
          defaultValue: true,
          admin: { description: 'Group nearby points when zoomed out (recommended above a few hundred entities).' },
        },
      ],
    },
    {
      name: 'alertRules',
      access: membersOnly,
      type: 'array',
      maxRows: 20,
      admin: { description: 'Plain rules, evaluated on the server for every entity: the highest level that fires wins.' },
      fields: [
        {
          type: 'row',
          fields: [
            attributeField('attribute', 'Attribute'),
            {
              name: 'operator',
              type: 'select',
              required: true,
              options: ALERT_OPERATORS.map((name) => ({ label: ALERT_OPERATOR_LABELS[name], value: name })),
            },
            { name: 'value', type: 'text', maxLength: 100 },
            { name: 'valueTo', label: 'Up to', type: 'number' },
            {
              name: 'level',
              type: 'select',
              required: true,
              defaultValue: 'warning',
              options: ALERT_LEVELS.map((level) => ({ label: level, value: level })),
            },
          ],
        },
        { name: 'message', type: 'text', required: true, localized: true, maxLength: 200 },
      ],
    },
    {
      type: 'row',
      fields: [
        {
          name: 'refreshSeconds',
          type: 'number',
          required: true,
          defaultValue: 60,
          min: 10,
          max: 86_400,
          admin: { description: 'How often citizens’ maps refresh and the server re-reads the broker.' },
        },
        {
          name: 'maxFeatures',
      access: membersOnly,
          type: 'number',
          required: true,
          defaultValue: 50_000,
          min: 1,
          // Bodies are streamed and gzipped page by page: 500,000 loads in bounded memory.
          max: 500_000,
          admin: { description: 'Read at most this many entities; beyond, the map says the layer is truncated.' },
        },
      ],
    },
    {
      name: 'liveThrottleSeconds',
      label: 'Live updates: at most one notification per N seconds',
      access: membersOnly,
      type: 'number',
      min: 0,
      // An hour: beyond it a layer is better served by its refresh interval.
      max: 3600,
      validate: validThrottleSeconds,
      admin: {
        step: 1,
        description:
          'Sent to the broker as the subscription’s throttling: a layer whose entities change many times a second pushes at most one change per N seconds to citizens’ maps. Empty or 0: the broker’s default (every change). Saving a new value replaces the layer’s subscriptions.',
      },
    },
  ],
}
