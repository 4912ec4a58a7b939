import type { GlobalConfig } from 'payload'

import { anyone, isAdmin } from '@/access'
import { revalidateGlobal } from '@/site/globals'

export const CONFORMANCE_STATUSES = ['fully', 'partially', 'not'] as const
export const EXCEPTION_REASONS = ['non-compliance', 'disproportionate-burden', 'outside-scope'] as const
export const ASSESSMENT_METHODS = ['self-assessment', 'third-party'] as const

/**
 * The accessibility statement of Directive (EU) 2016/2102, laid out as the model statement of
 * Commission Implementing Decision (EU) 2018/1523: shown on /accessibility in the reader's
 * language (prose fields are localized; the headings come from the `accessibility` catalogue).
 * Admins update it, anyone reads it; a save re-renders the citizens' pages.
 */
export const AccessibilityStatement: GlobalConfig = {
  slug: 'accessibility-statement',
  label: 'Accessibility statement',
  access: { read: anyone, update: isAdmin },
  admin: {
    group: 'Site',
    description: 'Published at /accessibility (EU Directive 2016/2102, model statement of Implementing Decision 2018/1523). Review it at least once a year.',
  },
  fields: [
    {
      name: 'organisation',
      type: 'text',
      maxLength: 160,
      localized: true,
      admin: { description: 'The public body the statement is made by, e.g. "City of Santander".' },
    },
    { name: 'siteName', type: 'text', maxLength: 160, localized: true, admin: { description: 'The site it covers; empty: the site title.' } },
    {
      name: 'conformance',
      type: 'select',
      required: true,
      defaultValue: 'partially',
      options: [
        { label: 'Fully compliant with EN 301 549 / WCAG 2.1 AA', value: 'fully' },
        { label: 'Partially compliant (non-conformities listed below)', value: 'partially' },
        { label: 'Not compliant', value: 'not' },
      ],
    },
    {
      name: 'nonAccessibleContent',
      type: 'array',
      maxRows: 50,
      labels: { singular: 'Non-accessible content', plural: 'Non-accessible content' },
      fields: [
        { name: 'title', type: 'text', required: true, maxLength: 200, localized: true },
        { name: 'description', type: 'textarea', maxLength: 2000, localized: true, admin: { description: 'What is not accessible, and the accessible alternative if there is one.' } },
        {
          name: 'reason',
          type: 'select',
          required: true,
          defaultValue: 'non-compliance',
          options: [
            { label: 'Non-compliance with the requirements', value: 'non-compliance' },
            { label: 'Disproportionate burden', value: 'disproportionate-burden' },
            { label: 'Outside the scope of the legislation', value: 'outside-scope' },
          ],
        },
      ],
    },
    {
      type: 'row',
      fields: [
        { name: 'preparedAt', label: 'Statement prepared on', type: 'date', admin: { date: { pickerAppearance: 'dayOnly' } } },
        { name: 'reviewedAt', label: 'Last reviewed on', type: 'date', admin: { date: { pickerAppearance: 'dayOnly' } } },
      ],
    },
    {
      name: 'method',
      type: 'select',
      required: true,
      defaultValue: 'self-assessment',
      options: [
        { label: 'Self-assessment', value: 'self-assessment' },
        { label: 'Assessment by a third party', value: 'third-party' },
      ],
    },
    {
      name: 'feedback',
      type: 'group',
      admin: { description: 'Where citizens report problems or ask for content in an accessible format (the form on /accessibility is always offered as well).' },
      fields: [
        { name: 'email', type: 'email' },
        { name: 'phone', type: 'text', maxLength: 40 },
        { name: 'text', type: 'textarea', maxLength: 2000, localized: true, admin: { description: 'E.g. the time to answer, a postal address.' } },
      ],
    },
    {
      name: 'enforcement',
      type: 'textarea',
      maxLength: 3000,
      localized: true,
      admin: { description: 'The enforcement procedure: the national body citizens may turn to if the answer is unsatisfactory, with its contact.' },
    },
    { name: 'freeText', label: 'Further information', type: 'textarea', maxLength: 5000, localized: true },
  ],
  hooks: { afterChange: [revalidateGlobal] },
}
