import type { Field, GroupField } from 'payload'

// Only web and mail links: a javascript: or data: URL in navigation would be stored XSS.
const SAFE_URL = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i

export const validateSafeUrl = (value: string | null | undefined): true | string => {
  if (!value) return true
  return SAFE_URL.test(value.trim()) ? true : 'Use an https:// or http:// address, a mailto: link or a path starting with /'
}

/** A link to a page or post of this site, or to a custom URL. */
export const linkGroup = (name = 'link', { required = true }: { required?: boolean } = {}): GroupField => ({
  name,
  type: 'group',
  admin: { hideGutter: true },
  fields: [
    {
      type: 'row',
      fields: [
        {
          name: 'type',
          type: 'radio',
          defaultValue: 'reference',
          options: [
            { label: 'Page or post of this site', value: 'reference' },
            { label: 'Custom URL', value: 'custom' },
          ],
          admin: { layout: 'horizontal' },
        },
        { name: 'newTab', type: 'checkbox', label: 'Open in a new tab' },
      ],
    },
    {
      name: 'reference',
      type: 'relationship',
      relationTo: ['pages', 'posts'],
      required,
      maxDepth: 1,
      admin: { condition: (_, sibling) => sibling?.type === 'reference' },
    },
    {
      name: 'url',
      type: 'text',
      required,
      validate: validateSafeUrl,
      admin: { condition: (_, sibling) => sibling?.type === 'custom' },
    },
    { name: 'label', type: 'text', required, localized: true, maxLength: 80 },
  ],
})

export const linkArray = (name: string, maxRows = 12): Field => ({
  name,
  type: 'array',
  maxRows,
  fields: [linkGroup('link')],
})
