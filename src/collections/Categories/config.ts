import type { CollectionConfig } from 'payload'

import { anyone, isStaff, memberAdmin } from '@/access'
import { slugField } from '@/fields/slug'

export const Categories: CollectionConfig = {
  slug: 'categories',
  access: {
    admin: memberAdmin,
    create: isStaff,
    read: anyone,
    update: isStaff,
    delete: isStaff,
  },
  admin: { useAsTitle: 'title', group: 'Content' },
  fields: [{ name: 'title', type: 'text', required: true, localized: true, maxLength: 80 }, slugField()],
}
