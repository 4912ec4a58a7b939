import type { Metadata } from 'next'

import { PageView } from '@/components/PageView'
import { pageMetadata } from '@/site/metadata'
import { canSeeDrafts } from '@/site/draftAccess'
import { HOME_SLUG } from '@/site/paths'

// Prerendered; purged on publish and re-rendered at most every minute, so inlined city data stays recent.
export const revalidate = 60

export const generateMetadata = (): Promise<Metadata> => pageMetadata(HOME_SLUG)

export default async function HomePage() {
  const draft = await canSeeDrafts()
  return <PageView slug={HOME_SLUG} draft={draft} />
}
