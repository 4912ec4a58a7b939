import type { Metadata } from 'next'

import { PageView } from '../PageView'
import { pageLocale } from '@/i18n/server'
import { pageMetadata } from '@/site/metadata'
import { listPublishedPageSlugs } from '@/site/queries'
import { canSeeDrafts } from '@/site/draftAccess'

// Prerendered; purged on publish and re-rendered at most every minute, so inlined city data stays recent.
export const revalidate = 60
export const dynamicParams = true

type Args = { params: Promise<{ locale: string; slug: string }> }

export async function generateStaticParams() {
  return (await listPublishedPageSlugs()).map((slug) => ({ slug }))
}

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  return pageMetadata(decodeURIComponent((await params).slug), await pageLocale(params))
}

export default async function Page({ params }: Args) {
  const locale = await pageLocale(params)
  const { slug } = await params
  const draft = await canSeeDrafts()
  return <PageView slug={decodeURIComponent(slug)} draft={draft} locale={locale} />
}
