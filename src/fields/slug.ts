import type { Field, FieldHook } from 'payload'

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
// Paths the app itself serves: a page with one of these slugs could never be reached.
const RESERVED_SLUGS = new Set(['admin', 'api', 'posts', 'questions', 'next', 'search', '_next'])

export const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)

const fillSlugFromTitle =
  (fallbackField: string): FieldHook =>
  ({ value, data }) => {
    if (typeof value === 'string' && value.trim() !== '') return slugify(value)
    const source = data?.[fallbackField]
    return typeof source === 'string' ? slugify(source) : value
  }

/** A URL slug, unique and indexed, filled from `fallbackField` when left empty. */
export const slugField = (fallbackField = 'title'): Field => ({
  name: 'slug',
  type: 'text',
  index: true,
  unique: true,
  required: true,
  admin: { position: 'sidebar', description: `Lower-case words joined by "-". Filled from the ${fallbackField} when empty.` },
  hooks: { beforeValidate: [fillSlugFromTitle(fallbackField)] },
  validate: (value: string | null | undefined) => {
    if (!value) return 'A slug is required'
    if (!SLUG_PATTERN.test(value)) return 'Use lower-case letters, digits and "-" only'
    if (RESERVED_SLUGS.has(value)) return `"${value}" is used by the site itself; pick another slug`
    return true
  },
})
