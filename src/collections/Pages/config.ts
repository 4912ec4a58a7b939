import type { CollectionConfig } from 'payload'

import { isMember, isStaff, memberAdmin, publishedOrMember, userIsStaff } from '@/access'
import { pageBlocks } from '@/blocks'
import { translateWithAiField } from '@/collections/AiDrafts/fields'
import { cityFieldOf } from '@/fields/dashboard'
import { seoTab } from '@/fields/seoTab'
import { slugField } from '@/fields/slug'
import { previewPath } from '@/site/paths'

import { checkNavigationRoom, dropFromNavigation, readInNavigation, syncNavigation } from './hooks/navigation'
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
    { name: 'title', type: 'text', required: true, localized: true, maxLength: 160 },
    cityFieldOf('tenant', "The city this dashboard shows, from Site settings → Cities; empty = the site's default city.", { position: 'sidebar' }),
    {
      // A view of the Header global's nav items (hooks/navigation.ts): never stored on the page.
      name: 'inNavigation',
      type: 'checkbox',
      label: 'Show in the header navigation',
      virtual: true,
      access: { read: ({ req }) => userIsStaff(req.user), update: ({ req }) => userIsStaff(req.user) },
      hooks: { afterRead: [readInNavigation] },
      // Virtual fields are read-only in the admin unless they say otherwise.
      admin: { position: 'sidebar', readOnly: false, description: 'Adds a link to this page to the site’s header (Header → Nav items); untick to remove it.' },
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
    translateWithAiField({ position: 'sidebar' }),
  ],
  hooks: {
    beforeChange: [checkNavigationRoom],
    afterChange: [revalidatePage, syncNavigation],
    afterDelete: [revalidatePageDelete, dropFromNavigation],
  },
  versions: {
    // Drafts are validated like published pages: "Create new" then makes no document until the
    // first valid save (Payload creates an autosaved draft on the visit otherwise), and a draft
    // with a broken data block is refused when saved as when published, by hand or by schedule.
    drafts: { autosave: { interval: 375 }, schedulePublish: true, validate: true },
    maxPerDoc: 50,
  },
}
