import type { Metadata } from 'next'
import Link from 'next/link'
import { getTranslations } from 'next-intl/server'

import { pageLocale } from '@/i18n/server'

import { LinkAction } from '../../alerts/LinkAction'

export const dynamic = 'force-dynamic'

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const t = await getTranslations({ locale: await pageLocale(params), namespace: 'accountPages' })
  return { title: t('verifyTitle'), robots: { index: false }, referrer: 'no-referrer' }
}

type Args = { params: Promise<{ locale: string }> }

/** /account/verify?t: the verification mail's link opens this page; its button verifies (a link alone never does). */
export default async function VerifyAccountPage({ params, searchParams }: Args & { searchParams: Promise<{ t?: string }> }) {
  await pageLocale(params)
  const { t = '' } = await searchParams
  const text = await getTranslations('accountPages')
  return (
    <article className="page">
      <h1>{text('verifyTitle')}</h1>
      <p>{text('verifyIntro')}</p>
      <LinkAction endpoint="/api/account/verify" link={{ t }} button={text('verifyButton')} done={text('verifyDone')} refused={text('verifyRefused')} />
      <p>
        {/* The admin is outside the locale routes: a plain Next link, no locale prefix. */}
        <Link href="/admin/login">{text('signIn')}</Link>
      </p>
    </article>
  )
}
