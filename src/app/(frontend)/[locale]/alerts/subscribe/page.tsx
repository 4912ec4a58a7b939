import type { Metadata } from 'next'
import { getTranslations } from 'next-intl/server'

import { emailEnabled } from '@/email/entry'
import { pageLocale } from '@/i18n/server'
import { subscribableLayers } from '@/layers/entry/alertNotices'
import { choicesOf, citiesOf } from '@/site/cities'
import { cachedGlobal } from '@/site/queries'

import { SubscribeForm } from './SubscribeForm'

export const dynamic = 'force-dynamic'

type Args = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const t = await getTranslations({ locale: await pageLocale(params), namespace: 'alertPages' })
  return { title: t('subscribeTitle'), robots: { index: false } }
}

type Search = { layer?: string; city?: string }

/** /alerts/subscribe[?layer&city]: the subscription form, offered only when the server can send mail. */
export default async function SubscribePage({ params, searchParams }: Args & { searchParams: Promise<Search> }) {
  const locale = await pageLocale(params)
  const { layer, city } = await searchParams
  const t = await getTranslations('alertPages')
  if (!emailEnabled()) {
    return (
      <article className="page">
        <h1>{t('subscribeTitle')}</h1>
        <p>{t('emailOff')}</p>
      </article>
    )
  }
  const [layers, settings] = await Promise.all([subscribableLayers(), cachedGlobal('site-settings', locale)])
  const cities = choicesOf(citiesOf(settings))
  return (
    <article className="page">
      <h1>{t('subscribeTitle')}</h1>
      <p>{t('subscribeIntro')}</p>
      {layers.length === 0 ? (
        <p>{t('noLayers')}</p>
      ) : (
        <SubscribeForm
          layers={layers}
          cities={cities}
          initialLayer={layers.some((candidate) => candidate.id === layer) ? layer : layers[0]?.id}
          initialCity={cities.some((candidate) => candidate.tenant === city) ? city : cities[0]?.tenant}
        />
      )}
    </article>
  )
}
