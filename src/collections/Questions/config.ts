import type { Access, CollectionConfig } from 'payload'

import { adminFieldAccess, isStaff, memberAdmin, nobody, userIsMember } from '@/access'
import { env } from '@/env'
import { TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'

import { checkAnswer, revalidateQuestions } from './hooks/answer'
import { notifyAsker } from '@/feedback/entry/questionAnswered'

/** Citizens see answered questions only; members of the admin see all. */
const answeredOrMember: Access = ({ req }) => (userIsMember(req.user) ? true : { status: { equals: 'answered' } })

/**
 * Citizens' questions. They arrive only through POST /api/questions/ask (rate-limited per
 * client); an answer becomes public when staff apply an approved AI draft or write one themselves.
 */
export const Questions: CollectionConfig = {
  slug: 'questions',
  labels: { singular: 'Citizen question', plural: 'Citizen questions' },
  access: {
    admin: memberAdmin,
    create: nobody,
    read: answeredOrMember,
    update: isStaff,
    delete: isStaff,
  },
  defaultSort: '-createdAt',
  admin: {
    group: 'Citizens',
    useAsTitle: 'question',
    defaultColumns: ['question', 'city', 'status', 'createdAt'],
  },
  hooks: { beforeChange: [checkAnswer], afterChange: [notifyAsker, revalidateQuestions] },
  fields: [
    { name: 'question', type: 'textarea', required: true, maxLength: 1000 },
    {
      name: 'city',
      type: 'text',
      validate: (value: string | null | undefined) => (!value || TENANT_NAME.test(value) ? true : TENANT_NAME_RULE),
      admin: { description: 'The tenant of the city asked about.' },
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: 'received',
      options: [
        { label: 'Received', value: 'received' },
        { label: 'Answered (public)', value: 'answered' },
        { label: 'Declined', value: 'declined' },
      ],
      admin: { position: 'sidebar' },
    },
    {
      name: 'answer',
      type: 'textarea',
      maxLength: 3000,
      admin: {
        description: () => (env().ENABLE_AI ? 'Public once the status is answered. Write it yourself or apply an approved AI draft.' : 'Public once the status is answered.'),
      },
    },
    { name: 'answeredAt', type: 'date', admin: { position: 'sidebar', readOnly: true } },
    {
      // Kept only to say that the answer is out: erased when that mail is queued (or the question declined), src/feedback/entry/questionAnswered.ts.
      name: 'notifyEmail',
      type: 'email',
      access: { read: adminFieldAccess, update: adminFieldAccess },
      admin: {
        position: 'sidebar',
        readOnly: true,
        description: 'The citizen is mailed once the answer is public; the address is then erased.',
      },
    },
    {
      name: 'answerDraft',
      type: 'relationship',
      relationTo: 'ai-drafts',
      access: { read: ({ req }) => userIsMember(req.user) },
      admin: { position: 'sidebar', readOnly: true, description: 'The approved AI draft the answer came from.', condition: () => env().ENABLE_AI },
    },
  ],
}
