import {
  MetaDescriptionField,
  MetaImageField,
  MetaTitleField,
  OverviewField,
  PreviewField,
} from '@payloadcms/plugin-seo/fields'
import type { Tab } from 'payload'

/** The SEO tab of pages and posts: title, description and Open Graph image for citizens' shares. */
export const seoTab: Tab = {
  name: 'meta',
  label: 'SEO',
  fields: [
    OverviewField({ titlePath: 'meta.title', descriptionPath: 'meta.description', imagePath: 'meta.image' }),
    // Title and description are read per locale; the image is shared.
    { ...MetaTitleField({ hasGenerateFn: true }), localized: true },
    // The plugin marks its fields localized; the image stays one for every locale.
    { ...MetaImageField({ relationTo: 'media' }), localized: false },
    { ...MetaDescriptionField({}), localized: true },
    PreviewField({ hasGenerateFn: true, titlePath: 'meta.title', descriptionPath: 'meta.description' }),
  ],
}
