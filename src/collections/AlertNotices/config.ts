import type { CollectionConfig } from 'payload'

import { isAdmin, isStaff, memberAdmin, nobody, userIsAdmin } from '@/access'
import { ALERT_LEVELS } from '@/alerts'

const systemSet = { readOnly: true }

/**
 * One row per notice-worthy alert: a rule firing at a place of a layer and city, at most once per
 * period (Site settings → Alert notices). The row is the claim: its `key` (place and sequence) is
 * unique, so two replicas that see the same fresh alert insert one row between them, and the one
 * that did queues the mails. Kept as a record of what citizens were told.
 */
export const AlertNotices: CollectionConfig = {
  slug: 'alert-notices',
  labels: { singular: 'Alert notice', plural: 'Alert notices' },
  access: { admin: memberAdmin, read: isStaff, create: nobody, update: nobody, delete: isAdmin },
  defaultSort: '-createdAt',
  admin: { group: 'Citizens', useAsTitle: 'message', defaultColumns: ['message', 'level', 'layer', 'city', 'placeName', 'createdAt'] },
  fields: [
    { name: 'key', type: 'text', required: true, unique: true, admin: { hidden: true } },
    { name: 'place', type: 'text', required: true, index: true, admin: { hidden: true } },
    { name: 'sequence', type: 'number', required: true, admin: { hidden: true } },
    { name: 'layer', type: 'relationship', relationTo: 'map-layers', required: true, index: true, admin: systemSet },
    { name: 'city', type: 'text', admin: systemSet },
    { name: 'featureId', type: 'text', required: true, admin: systemSet },
    { name: 'placeName', type: 'text', admin: systemSet },
    { name: 'level', type: 'select', required: true, options: [...ALERT_LEVELS], admin: systemSet },
    { name: 'message', type: 'text', required: true, admin: systemSet },
    { name: 'firedAt', type: 'date', required: true, index: true, admin: { ...systemSet, date: { pickerAppearance: 'dayAndTime' } } },
  ],
}

/**
 * Notices held for a subscriber during their quiet hours, sent together as one digest when the
 * hours end. Rows, not a list on the subscription: two notices held at once never overwrite each other.
 */
export const HeldAlertNotices: CollectionConfig = {
  slug: 'held-alert-notices',
  labels: { singular: 'Held alert notice', plural: 'Held alert notices' },
  access: { admin: ({ req }) => userIsAdmin(req.user), read: isAdmin, create: nobody, update: nobody, delete: isAdmin },
  admin: { group: 'Citizens', hidden: true },
  fields: [
    { name: 'subscription', type: 'relationship', relationTo: 'alert-subscriptions', required: true, index: true },
    { name: 'notice', type: 'relationship', relationTo: 'alert-notices', required: true },
  ],
}
