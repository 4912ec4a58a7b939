import type { Metadata } from 'next'
import { canSeeDrafts } from '@/site/draftAccess'
import type React from 'react'

import { LivePreviewListener } from '@/components/LivePreviewListener'
import { env } from '@/env'
import { Footer } from '@/globals/Footer/Component'
import { Header } from '@/globals/Header/Component'
import { siteTitle } from '@/site/globals'
import { cachedGlobal } from '@/site/queries'

import './globals.css'

export async function generateMetadata(): Promise<Metadata> {
  const settings = await cachedGlobal('site-settings')
  const title = siteTitle(settings)
  const description = settings?.description ?? 'Live data about your city.'
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
      images: ogImage?.url ? [{ url: ogImage.sizes?.og?.url ?? ogImage.url, alt: ogImage.alt }] : undefined,
    },
  }
}

export default async function FrontendLayout({ children }: { children: React.ReactNode }) {
  const [header, footer, settings, draft] = await Promise.all([
    cachedGlobal('header'),
    cachedGlobal('footer'),
    cachedGlobal('site-settings'),
    canSeeDrafts(),
  ])
  return (
    <html lang={settings?.metadata?.locale ?? 'en'} data-theme={header?.theme ?? 'light'}>
      <body>
        {draft && <LivePreviewListener serverURL={env().PUBLIC_SERVER_URL} />}
        <Header header={header} siteTitle={siteTitle(settings)} />
        <main id="main">{children}</main>
        <Footer footer={footer} />
      </body>
    </html>
  )
}
