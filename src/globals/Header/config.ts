import type { GlobalConfig } from 'payload'

import { anyone, isStaff } from '@/access'
import { linkArray } from '@/fields/link'
import { revalidateGlobal } from '@/site/globals'

export const Header: GlobalConfig = {
  slug: 'header',
  access: { read: anyone, update: isStaff },
  admin: { group: 'Site' },
  fields: [
    { name: 'logo', type: 'upload', relationTo: 'media' },
    linkArray('navItems', 8),
    {
      name: 'theme',
      type: 'select',
      defaultValue: 'light',
      options: [
        { label: 'Light', value: 'light' },
        { label: 'Dark', value: 'dark' },
      ],
    },
  ],
  hooks: { afterChange: [revalidateGlobal] },
}
