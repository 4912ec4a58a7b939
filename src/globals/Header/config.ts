import type { GlobalConfig } from 'payload'

import { anyone, isStaff } from '@/access'
import { linkArray } from '@/fields/link'
import { revalidateGlobal } from '@/site/globals'

/** Links the header holds at most (a page's sidebar box refuses to add one past it). */
export const HEADER_NAV_MAX = 8

export const Header: GlobalConfig = {
  slug: 'header',
  access: { read: anyone, update: isStaff },
  admin: { group: 'Site' },
  fields: [
    { name: 'logo', type: 'upload', relationTo: 'media' },
    linkArray('navItems', HEADER_NAV_MAX),
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
