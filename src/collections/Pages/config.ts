import type { CollectionConfig } from 'payload'

import { isMember, isStaff, memberAdmin, publishedOrMember } from '@/access'
import { pageBlocks } from '@/blocks'
import { seoTab } from '@/fields/seoTab'
import { slugField } from '@/fields/slug'
import { TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'
import { previewPath } from '@/site/paths'

import { revalidatePage, revalidatePageDelete } from './hooks/revalidatePage'

export const Pages: CollectionConfig = {
  slug: 'pages',
  access: {
    admin: memberAdmin,
    create: isStaff,
    read: publishedOrMember,
    readVersions: isMember,
    update: isStaff,
    delete: isStaff,
  },
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'slug', 'tenant', '_status', 'updatedAt'],
    livePreview: {
      url: ({ data }) => previewPath({ collection: 'pages', slug: data?.slug }),
    },
    preview: (data) => previewPath({ collection: 'pages', slug: data?.slug as string | undefined }),
  },
  defaultPopulate: { title: true, slug: true },
  fields: [
    { name: 'title', type: 'text', required: true, maxLength: 160 },
    {
      name: 'tenant',
      type: 'text',
      admin: {
        position: 'sidebar',
        description: "The city (broker tenant) this dashboard shows; empty = the site's default city.",
      },
      validate: (value: string | null | undefined) =>
        !value || TENANT_NAME.test(value) ? true : TENANT_NAME_RULE,
    },
    {
      type: 'tabs',
      tabs: [
        { label: 'Layout', fields: [{ name: 'layout', type: 'blocks', blocks: pageBlocks }] },
        seoTab,
      ],
    },
    { name: 'publishedAt', type: 'date', index: true, admin: { position: 'sidebar' } },
    slugField(),
  ],
  hooks: {
    afterChange: [revalidatePage],
    afterDelete: [revalidatePageDelete],
  },
  versions: {
    drafts: { autosave: { interval: 375 }, schedulePublish: true },
    maxPerDoc: 50,
  },
}
