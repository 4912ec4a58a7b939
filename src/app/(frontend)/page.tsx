import type { Metadata } from 'next'
import { draftMode } from 'next/headers'

import { PageView } from '@/components/PageView'
import { pageMetadata } from '@/utilities/pageMetadata'

// Prerendered; purged on publish, and refreshed at most this often as a safety net.
export const revalidate = 300

export const generateMetadata = (): Promise<Metadata> => pageMetadata('home')

export default async function HomePage() {
  const { isEnabled: draft } = await draftMode()
  return <PageView slug="home" draft={draft} />
}
