import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { NextIntlClientProvider } from 'next-intl'
import { getMessages, getTranslations, setRequestLocale } from 'next-intl/server'
import type React from 'react'

import { LivePreviewListener } from '@/components/LivePreviewListener'
import { env } from '@/env'
import { Footer } from '@/globals/Footer/Component'
import { Header } from '@/globals/Header/Component'
import { isLocale, LOCALES } from '@/i18n/locales'
import { clientMessages, type Messages } from '@/i18n/messages'
import { canSeeDrafts } from '@/site/draftAccess'
import { siteTitle } from '@/site/globals'
import { cachedGlobal } from '@/site/queries'

import '../globals.css'

type Args = { params: Promise<{ locale: string }> }

// Every locale is prerendered; any other first segment is a page slug of the default locale
// (next.config.mjs rewrites), so `pageLocale` only ever refuses a hand-made `/{locale}` address.
// No `dynamicParams = false` here: children would inherit it, and pages published after the build would 404.
export const generateStaticParams = () => LOCALES.map((locale) => ({ locale }))

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const { locale } = await params
  if (!isLocale(locale)) return {}
  const [settings, t] = await Promise.all([cachedGlobal('site-settings', locale), getTranslations({ locale, namespace: 'site' })])
  const title = siteTitle(settings)
  const description = settings?.description ?? t('defaultDescription')
  const ogImage = typeof settings?.metadata?.ogImage === 'object' ? settings.metadata.ogImage : null
  return {
    metadataBase: new URL(env().PUBLIC_SERVER_URL),
    title: { default: title, template: `%s · ${title}` },
    description,
    keywords: settings?.metadata?.keywords ?? undefined,
    icons: { icon: '/favicon.svg' },
    openGraph: {
      type: 'website',
      siteName: title,
      title,
      description,
      locale,
      images: ogImage?.url ? [{ url: ogImage.sizes?.og?.url ?? ogImage.url, alt: ogImage.alt }] : undefined,
    },
  }
}

export default async function FrontendLayout({ children, params }: Args & { children: React.ReactNode }) {
  const { locale } = await params
  if (!isLocale(locale)) notFound()
  setRequestLocale(locale)
  const [header, footer, settings, draft, messages] = await Promise.all([
    cachedGlobal('header', locale),
    cachedGlobal('footer', locale),
    cachedGlobal('site-settings', locale),
    canSeeDrafts(),
    getMessages() as Promise<Messages>,
  ])
  return (
    <html lang={locale} data-theme={header?.theme ?? 'light'}>
      <body>
        <NextIntlClientProvider locale={locale} messages={clientMessages(messages)}>
          {draft && <LivePreviewListener serverURL={env().PUBLIC_SERVER_URL} />}
          <Header header={header} siteTitle={siteTitle(settings)} />
          <main id="main" tabIndex={-1}>
            {children}
          </main>
          <Footer footer={footer} />
        </NextIntlClientProvider>
      </body>
    </html>
  )
}
