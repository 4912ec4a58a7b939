import type { GlobalConfig } from 'payload'

import { anyone, isStaff } from '@/access'
import { linkArray, validateSafeUrl } from '@/fields/link'
import { revalidateGlobal } from '@/site/globals'

export const Footer: GlobalConfig = {
  slug: 'footer',
  access: { read: anyone, update: isStaff },
  admin: { group: 'Site' },
  fields: [
    linkArray('navItems', 12),
    {
      name: 'contact',
      type: 'group',
      fields: [
        { name: 'email', type: 'email' },
        { name: 'phone', type: 'text', maxLength: 40 },
        { name: 'address', type: 'textarea', localized: true, maxLength: 300 },
      ],
    },
    {
      name: 'social',
      type: 'array',
      maxRows: 8,
      fields: [
        {
          name: 'platform',
          type: 'select',
          required: true,
          options: ['mastodon', 'bluesky', 'facebook', 'instagram', 'youtube', 'linkedin', 'x'].map((value) => ({
            label: value[0].toUpperCase() + value.slice(1),
            value,
          })),
        },
        { name: 'url', type: 'text', required: true, validate: validateSafeUrl },
      ],
    },
    { name: 'copyright', type: 'text', localized: true, maxLength: 160 },
  ],
  hooks: { afterChange: [revalidateGlobal] },
}
