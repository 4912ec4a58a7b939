import type { CollectionConfig } from 'payload'

import { isStaff, memberAdmin, nobody } from '@/access'

import { notifyStaff } from '@/feedback/entry/accessibilityDigest'

export const REPORT_STATUSES = ['new', 'in-progress', 'resolved'] as const

/**
 * Accessibility problems reported by citizens from /accessibility (the feedback channel the EU
 * accessibility statement must offer). They arrive only through POST /api/accessibility/feedback
 * (rate-limited, honeypot); nobody outside staff reads them: they may hold a citizen's address.
 */
export const AccessibilityReports: CollectionConfig = {
  slug: 'accessibility-reports',
  labels: { singular: 'Accessibility report', plural: 'Accessibility reports' },
  access: {
    admin: memberAdmin,
    create: nobody,
    read: isStaff,
    update: isStaff,
    delete: isStaff,
  },
  defaultSort: '-createdAt',
  admin: {
    group: 'Citizens',
    useAsTitle: 'description',
    defaultColumns: ['description', 'pageUrl', 'status', 'createdAt'],
    description: 'Problems citizens reported with the form on /accessibility. Answer those who left an address, and update the accessibility statement when a problem stays.',
  },
  hooks: { afterChange: [notifyStaff] },
  fields: [
    { name: 'description', type: 'textarea', required: true, maxLength: 2000 },
    { name: 'pageUrl', label: 'Page concerned', type: 'text', maxLength: 500, admin: { description: 'A path of this site, as the citizen gave it.' } },
    { name: 'email', label: 'Answer to', type: 'email', admin: { description: 'Left by the citizen for an answer; use it for nothing else.' } },
    { name: 'locale', type: 'text', maxLength: 5, admin: { position: 'sidebar', readOnly: true, description: 'The language the citizen wrote from.' } },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: 'new',
      options: [
        { label: 'New', value: 'new' },
        { label: 'In progress', value: 'in-progress' },
        { label: 'Resolved', value: 'resolved' },
      ],
      admin: { position: 'sidebar' },
    },
    { name: 'staffNotes', type: 'textarea', maxLength: 3000, admin: { description: 'For staff only.' } },
  ],
}
