import type { Metadata } from 'next'

import { PageView } from './PageView'
import { pageLocale } from '@/i18n/server'
import { pageMetadata } from '@/site/metadata'
import { canSeeDrafts } from '@/site/draftAccess'
import { HOME_SLUG } from '@/site/paths'

// Prerendered; purged on publish and re-rendered at most every minute, so inlined city data stays recent.
export const revalidate = 60

type Args = { params: Promise<{ locale: string }> }

export const generateMetadata = async ({ params }: Args): Promise<Metadata> => pageMetadata(HOME_SLUG, await pageLocale(params))

export default async function HomePage({ params }: Args) {
  const locale = await pageLocale(params)
  const draft = await canSeeDrafts()
  return <PageView slug={HOME_SLUG} draft={draft} locale={locale} />
}
