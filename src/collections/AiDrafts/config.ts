import type { CollectionConfig } from 'payload'

import { isAdmin, isStaff, nobody, userIsStaff } from '@/access'
import { taskNames } from '@/ai/shared/taskNames'
import { env } from '@/env'
import { LOCALE_NAMES, LOCALES } from '@/i18n/locales'

import { enforceDraftWorkflow } from '@/ai/entry/drafts/workflow'
import { AI_DRAFT_STATUSES } from '@/ai/shared/draftStatus'
import { TARGET_COLLECTIONS } from '@/ai/shared/draftTargets'

const systemSet = { readOnly: true, description: 'Set by the system.' }

/**
 * Drafts the AI helper wrote, waiting for a human. Created only by server code (POST
 * /api/ai/generate, the citizen question route); the workflow hook, not the admin UI, decides
 * which status changes are allowed and what apply writes.
 */
export const AiDrafts: CollectionConfig = {
  slug: 'ai-drafts',
  labels: { singular: 'AI draft', plural: 'AI drafts' },
  access: {
    admin: ({ req }) => userIsStaff(req.user),
    create: nobody,
    read: isStaff,
    update: isStaff,
    delete: isAdmin,
  },
  defaultSort: '-createdAt',
  admin: {
    // With the AI helper off there is nothing to review: the queue leaves the navigation.
    hidden: () => !env().ENABLE_AI,
    group: 'AI helper',
    useAsTitle: 'task',
    defaultColumns: ['task', 'status', 'target', 'createdAt'],
    description:
      'The review queue: nothing the AI writes is used until an editor approves it here. Edit the text while it is pending, then approve or reject; apply an approved draft to put it into its target as an unpublished draft.',
  },
  hooks: { beforeChange: [enforceDraftWorkflow] },
  fields: [
    {
      name: 'reviewActions',
      type: 'ui',
      admin: { position: 'sidebar', components: { Field: '@/collections/AiDrafts/components/ReviewActions#ReviewActions' } },
    },
    { name: 'task', type: 'select', required: true, index: true, options: [...taskNames], admin: systemSet },
    {
      name: 'draft',
      type: 'textarea',
      required: true,
      maxLength: 30_000,
      admin: { description: 'Editable while pending review; fixed once approved.', rows: 14 },
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: 'pending_review',
      options: AI_DRAFT_STATUSES.map((status) => ({ label: status.replace('_', ' '), value: status })),
      admin: { position: 'sidebar', readOnly: true, description: 'Changed with the review buttons above.' },
    },
    { name: 'requiresApproval', type: 'checkbox', required: true, defaultValue: true, admin: { ...systemSet, position: 'sidebar' } },
    { name: 'reviewer', type: 'relationship', relationTo: 'users', admin: { ...systemSet, position: 'sidebar' } },
    { name: 'approvedAt', type: 'date', admin: { ...systemSet, position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } } },
    {
      name: 'target',
      type: 'group',
      admin: {
        description: 'Where apply puts the approved text.',
        components: { Cell: '@/collections/AiDrafts/components/TargetCell#TargetCell' },
      },
      fields: [
        {
          type: 'row',
          fields: [
            { name: 'collection', type: 'select', options: [...TARGET_COLLECTIONS], admin: { readOnly: true } },
            // Not `id`: Payload's SQL adapters cannot query a group sub-field of that name.
            { name: 'docId', label: 'Document id', type: 'text', maxLength: 64, admin: { readOnly: true } },
            { name: 'field', type: 'text', maxLength: 100, admin: { readOnly: true } },
            // The language a translation goes into; empty for the other tasks (their field is not localized, or the default locale's).
            { name: 'locale', type: 'select', options: LOCALES.map((code) => ({ label: LOCALE_NAMES[code], value: code })), admin: { readOnly: true } },
          ],
        },
      ],
    },
    { name: 'model', type: 'text', maxLength: 200, admin: { ...systemSet, description: 'The model that wrote this draft.' } },
    {
      name: 'failedModels',
      label: 'Models that failed before',
      type: 'array',
      admin: { ...systemSet, description: 'The models of the chain tried before the one that wrote it, and why each failed.' },
      fields: [
        {
          type: 'row',
          fields: [
            { name: 'model', type: 'text', required: true, maxLength: 200, admin: { readOnly: true } },
            { name: 'reason', type: 'text', required: true, maxLength: 600, admin: { readOnly: true } },
          ],
        },
      ],
    },
    { name: 'prompt', type: 'textarea', admin: { ...systemSet, description: 'Exactly what was sent to the model.' } },
    { name: 'input', type: 'json', admin: { ...systemSet, description: 'The task input the draft was generated from.' } },
  ],
}
