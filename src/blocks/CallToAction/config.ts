import type { Block } from 'payload'

import { linkArray } from '@/fields/link'

export const CallToActionBlock: Block = {
  slug: 'cta',
  interfaceName: 'CallToActionBlock',
  labels: { singular: 'Call to action', plural: 'Calls to action' },
  fields: [
    { name: 'richText', localized: true, type: 'richText', required: true },
    linkArray('links', 2),
  ],
}
