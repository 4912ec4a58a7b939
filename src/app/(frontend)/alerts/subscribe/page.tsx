import type { Metadata } from 'next'

import { emailEnabled } from '@/email'
import { subscribableLayers } from '@/layers/entry/alertNotices'
import { cachedGlobal } from '@/site/queries'

import { SubscribeForm } from './SubscribeForm'

export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Alert notices by email', robots: { index: false } }

const TEXT = {
  heading: 'Alert notices by email',
  intro:
    'Get an email when a city alert fires. We send a link to confirm first, and nothing else until you use it. Every mail has a link to stop them with one click.',
  off: 'This site does not send email, so alert notices by email are not available.',
  none: 'No map layer has alerts to subscribe to yet.',
}

type Search = { layer?: string; city?: string }

/** /alerts/subscribe[?layer&city]: the subscription form, offered only when the server can send mail. */
export default async function SubscribePage({ searchParams }: { searchParams: Promise<Search> }) {
  const { layer, city } = await searchParams
  if (!emailEnabled()) {
    return (
      <article className="page">
        <h1>{TEXT.heading}</h1>
        <p>{TEXT.off}</p>
      </article>
    )
  }
  const [layers, settings] = await Promise.all([subscribableLayers(), cachedGlobal('site-settings')])
  const cities = (settings?.cities ?? []).map(({ name, tenant }) => ({ name, tenant }))
  return (
    <article className="page">
      <h1>{TEXT.heading}</h1>
      <p>{TEXT.intro}</p>
      {layers.length === 0 ? (
        <p>{TEXT.none}</p>
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
