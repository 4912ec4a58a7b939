import type { GlobalAfterChangeHook, Payload, PayloadRequest } from 'payload'

import { type Locale, LOCALES } from '@/i18n/locales'
import type { Config } from '@/payload-types'

import { expireTag, purgeCitizenPages } from './revalidate'

type Globals = Config['globals']
export type GlobalSlug = keyof Globals

/** The product's name: the site's title until an admin saves another (Site settings → Title). */
export const DEFAULT_SITE_TITLE = 'City Dashboard'

/** The site's name as citizens and editors see it. */
export const siteTitle = (settings: { title?: string | null } | null | undefined): string => settings?.title || DEFAULT_SITE_TITLE

/**
 * The cache tag of one global (all its locales), or of one locale's read of it: what its own
 * afterChange hook revalidates (every locale's, whichever locale the editor saved).
 */
export const globalTag = (slug: GlobalSlug, locale?: Locale) => (locale ? `global_${slug}_${locale}` : `global_${slug}`)

/**
 * A global as Payload stores it, with the server's rights: for routes, hooks and jobs (pass the
 * hook's `req` to stay in its transaction). The one place that types Payload's answer.
 */
export async function readGlobal<Slug extends GlobalSlug>(
  payload: Payload,
  slug: Slug,
  { depth = 0, req, locale }: { depth?: number; req?: PayloadRequest; locale?: Locale } = {},
): Promise<Globals[Slug]> {
  return (await payload.findGlobal({ slug, depth, req, locale, overrideAccess: true })) as Globals[Slug]
}

/**
 * Every global's afterChange hook: its cached read expires, and so do the citizen pages, whose
 * layout shows every global (pages prerendered by the build read globals uncached, so they carry
 * no global's tag).
 */
export const revalidateGlobal: GlobalAfterChangeHook = ({ doc, global }) => {
  const slug = global.slug as GlobalSlug
  expireTag(globalTag(slug))
  for (const locale of LOCALES) expireTag(globalTag(slug, locale))
  purgeCitizenPages()
  return doc
}
