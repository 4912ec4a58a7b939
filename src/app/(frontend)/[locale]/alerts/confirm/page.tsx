import type { Metadata } from 'next'
import { getTranslations } from 'next-intl/server'

import { pageLocale } from '@/i18n/server'

import { LinkAction } from '../LinkAction'

export const dynamic = 'force-dynamic'

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const t = await getTranslations({ locale: await pageLocale(params), namespace: 'alertPages' })
  return { title: t('confirmTitle'), robots: { index: false }, referrer: 'no-referrer' }
}

type Search = { s?: string; t?: string }
type Args = { params: Promise<{ locale: string }> }

/** /alerts/confirm?s&t: the confirmation mail's link opens this page; its button confirms (a link alone never does). */
export default async function ConfirmPage({ params, searchParams }: Args & { searchParams: Promise<Search> }) {
  await pageLocale(params)
  const { s = '', t = '' } = await searchParams
  const text = await getTranslations('alertPages')
  return (
    <article className="page">
      <h1>{text('confirmTitle')}</h1>
      <p>{text('confirmIntro')}</p>
      <LinkAction endpoint="/api/alerts/confirm" link={{ s, t }} button={text('confirmButton')} done={text('confirmDone')} refused={text('confirmRefused')} />
    </article>
  )
}
