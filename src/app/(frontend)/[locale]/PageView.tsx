import { notFound } from 'next/navigation'
import { getTranslations } from 'next-intl/server'

import { dataBlocksOf } from '@/blocks/dataBlocks'
import { RenderBlocks } from '@/blocks/RenderBlocks'
import { CitySwitcher } from '@/components/dashboard/CitySwitcher'
import { DashboardProvider } from '@/layers/client/DashboardProvider'
import { loadDashboard } from '@/layers/entry/dashboard'
import { findPage } from '@/site/queries'
import { HOME_SLUG } from '@/site/paths'
import type { Locale } from '@/i18n/locales'

export async function PageView({ slug, draft, locale }: { slug: string; draft: boolean; locale: Locale }) {
  const page = await findPage(slug, draft, locale)
  if (!page) {
    // The home page may not exist yet (fresh install): say so instead of a bare 404.
    if (slug === HOME_SLUG) {
      const t = await getTranslations({ locale, namespace: 'site' })
      return (
        <article className="page">
          <h1>{t('welcomeTitle')}</h1>
          <p>{t('welcomeText')}</p>
        </article>
      )
    }
    notFound()
  }
  const dashboard = await loadDashboard(page, dataBlocksOf(page.layout), { draft, locale })
  const body = (
    <article className="page" data-tenant={page.tenant ?? undefined}>
      <div className="page-heading">
        <h1>{page.title}</h1>
        {dashboard && <CitySwitcher />}
      </div>
      <RenderBlocks blocks={page.layout} />
    </article>
  )
  // Data blocks share one provider: one fetch per layer and city, one city choice for the page.
  return dashboard ? <DashboardProvider data={dashboard}>{body}</DashboardProvider> : body
}
