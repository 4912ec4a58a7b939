import { lexicalEditor } from '@payloadcms/richtext-lexical'
import type { CollectionConfig } from 'payload'

import { isMember, isStaff, memberAdmin, publishedOrMember } from '@/access'
import { draftWithAiField, translateWithAiField } from '@/collections/AiDrafts/fields'
import { seoTab } from '@/fields/seoTab'
import { slugField } from '@/fields/slug'
import { previewPath } from '@/site/paths'

import { populateAuthors } from './hooks/populateAuthors'
import { revalidatePost, revalidatePostDelete } from './hooks/revalidatePost'

export const Posts: CollectionConfig = {
  slug: 'posts',
  access: {
    admin: memberAdmin,
    create: isStaff,
    read: publishedOrMember,
    readVersions: isMember,
    update: isStaff,
    delete: isStaff,
  },
  defaultSort: '-publishedAt',
  defaultPopulate: { title: true, slug: true, categories: true, meta: { image: true, description: true } },
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'slug', '_status', 'publishedAt'],
    livePreview: {
      url: ({ data }) => previewPath({ collection: 'posts', slug: data?.slug }),
    },
    preview: (data) => previewPath({ collection: 'posts', slug: data?.slug as string | undefined }),
  },
  fields: [
    { name: 'title', type: 'text', required: true, localized: true, maxLength: 160 },
    {
      type: 'tabs',
      tabs: [
        {
          label: 'Content',
          fields: [
            {
              name: 'content',
              type: 'richText',
              required: true,
              localized: true,
              editor: lexicalEditor(),
              // Read by the AI helper: whether it may draft this field, and the prompt it starts from.
              custom: {
                ai: {
                  enabled: true,
                  prompts: {
                    generate:
                      'Write a short, factual news post for the city’s citizens titled {{title}}. Plain language, no speculation.',
                  },
                },
              },
            },
            draftWithAiField({ name: 'draftContentWithAi', task: 'post-draft', field: 'content' }),
            draftWithAiField({ name: 'suggestKeywordsWithAi', task: 'search-keywords', field: 'keywords' }),
            translateWithAiField(),
          ],
        },
        {
          label: 'Meta',
          fields: [
            { name: 'categories', type: 'relationship', relationTo: 'categories', hasMany: true },
            { name: 'authors', type: 'relationship', relationTo: 'users', hasMany: true },
          ],
        },
        seoTab,
      ],
    },
    {
      name: 'populatedAuthors',
      type: 'array',
      access: { update: () => false },
      admin: { disabled: true, readOnly: true },
      fields: [
        { name: 'id', type: 'text' },
        { name: 'name', type: 'text' },
      ],
    },
    {
      name: 'publishedAt',
      type: 'date',
      index: true,
      admin: { position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
      hooks: {
        beforeChange: [
          ({ siblingData, value }) =>
            siblingData._status === 'published' && !value ? new Date().toISOString() : value,
        ],
      },
    },
    slugField(),
  ],
  hooks: {
    afterChange: [revalidatePost],
    afterRead: [populateAuthors],
    afterDelete: [revalidatePostDelete],
  },
  versions: {
    // Validated drafts, as pages: "Create new" makes no post until the first valid save.
    drafts: { autosave: { interval: 375 }, schedulePublish: true, validate: true },
    maxPerDoc: 50,
  },
}
