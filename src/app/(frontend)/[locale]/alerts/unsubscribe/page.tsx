import type { Metadata } from 'next'
import { getTranslations } from 'next-intl/server'

import { pageLocale } from '@/i18n/server'

import { LinkAction } from '../LinkAction'

export const dynamic = 'force-dynamic'

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const t = await getTranslations({ locale: await pageLocale(params), namespace: 'alertPages' })
  return { title: t('stopTitle'), robots: { index: false }, referrer: 'no-referrer' }
}

type Search = { s?: string; t?: string }
type Args = { params: Promise<{ locale: string }> }

/** /alerts/unsubscribe?s&t: every mail's link opens this page; one click on its button erases the subscription. */
export default async function UnsubscribePage({ params, searchParams }: Args & { searchParams: Promise<Search> }) {
  await pageLocale(params)
  const { s = '', t = '' } = await searchParams
  const text = await getTranslations('alertPages')
  return (
    <article className="page">
      <h1>{text('stopTitle')}</h1>
      <p>{text('stopIntro')}</p>
      <LinkAction endpoint="/api/alerts/unsubscribe" link={{ s, t }} button={text('stopButton')} done={text('stopDone')} refused={text('stopRefused')} />
    </article>
  )
}
