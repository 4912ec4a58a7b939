import type { CollectionConfig } from 'payload'

import { adminFieldAccess, isAdmin, nobody, userIsAdmin } from '@/access'
import { ALERT_LEVELS } from '@/alerts'
import { TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'

const adminsOnly = { read: adminFieldAccess, create: () => false, update: () => false }
const systemSet = { readOnly: true }

/**
 * Citizens who asked for alert notices by email. They arrive only through POST
 * /api/alerts/subscribe (rate-limited; double opt-in) and leave through the unsubscribe link of
 * any mail, which deletes the row and what was held for it. Only admins see them: the addresses are
 * personal data, kept for nothing but the notices.
 */
export const AlertSubscriptions: CollectionConfig = {
  slug: 'alert-subscriptions',
  labels: { singular: 'Alert subscription', plural: 'Alert subscriptions' },
  access: { admin: ({ req }) => userIsAdmin(req.user), read: isAdmin, create: nobody, update: nobody, delete: isAdmin },
  defaultSort: '-createdAt',
  admin: { group: 'Citizens', useAsTitle: 'email', defaultColumns: ['email', 'layer', 'city', 'minimumLevel', 'status', 'createdAt'] },
  fields: [
    { name: 'email', type: 'email', required: true, access: adminsOnly, admin: systemSet },
    {
      name: 'subscriberKey',
      type: 'text',
      required: true,
      unique: true,
      index: true,
      // A hash of address, layer and city: finds an existing subscription without querying addresses.
      access: { read: () => false, create: () => false, update: () => false },
      admin: { hidden: true },
    },
    { name: 'layer', type: 'relationship', relationTo: 'map-layers', required: true, index: true, admin: systemSet },
    {
      name: 'city',
      type: 'text',
      required: true,
      index: true,
      validate: (value: string | null | undefined) => (value === '' || (value && TENANT_NAME.test(value)) ? true : TENANT_NAME_RULE),
      admin: { ...systemSet, description: 'The tenant of the city; empty for the broker’s default.' },
    },
    {
      name: 'minimumLevel',
      type: 'select',
      required: true,
      defaultValue: 'warning',
      options: ALERT_LEVELS.map((level) => ({ label: `${level} and above`, value: level })),
      admin: systemSet,
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: 'pending',
      options: [
        { label: 'Waiting for confirmation', value: 'pending' },
        { label: 'Confirmed', value: 'confirmed' },
      ],
      admin: { ...systemSet, position: 'sidebar' },
    },
    { name: 'confirmedAt', type: 'date', admin: { ...systemSet, position: 'sidebar' } },
    {
      name: 'quietHours',
      type: 'group',
      admin: { description: 'Notices in these hours are held and sent as one digest when they end.' },
      fields: [
        { name: 'enabled', type: 'checkbox', defaultValue: false, admin: systemSet },
        { name: 'from', type: 'number', min: 0, max: 23, admin: systemSet },
        { name: 'until', type: 'number', min: 0, max: 23, admin: systemSet },
        { name: 'timeZone', type: 'text', maxLength: 64, admin: systemSet },
        { name: 'digestDueAt', type: 'date', admin: { ...systemSet, description: 'When the held notices go out.' } },
      ],
    },
    {
      name: 'secret',
      type: 'text',
      required: true,
      // With APP_SECRET it makes the links' tokens: a copy of the database alone makes no link.
      access: { read: () => false, create: () => false, update: () => false },
      admin: { hidden: true },
    },
  ],
}
