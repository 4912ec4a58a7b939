import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getTranslations } from 'next-intl/server'
import { z } from 'zod'

import { HistoryView } from '@/components/history/HistoryView'
import { SiteLink } from '@/components/SiteLink'
import { pageLocale } from '@/i18n/server'
import { entityHistoryPath, historyWindows } from '@/layers/shared/history'
import { citiesNow } from '@/layers/entry/tenant'
import { timeZoneOfCity } from '@/site/cities'

type Args = { params: Promise<{ locale: string; id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const t = await getTranslations({ locale: await pageLocale(params), namespace: 'history' })
  return { title: t('title'), robots: { index: false } }
}

// The route checks everything again (access, the entity in the layer); this only keeps nonsense out of the page.
const searchSchema = z.object({
  entity: z.string().min(1).max(1024),
  attributes: z
    .string()
    .max(600)
    .transform((text) => text.split(',')),
  window: z.enum(historyWindows).default('week'),
  city: z.string().max(64).optional(),
})

/** One entity's full history, linked from map popups and table rows; the chart loads it from /api/layers/{id}/history. */
export default async function EntityHistoryPage({ params, searchParams }: Args) {
  const locale = await pageLocale(params)
  const { id } = await params
  const search = searchSchema.safeParse(await searchParams)
  if (!search.success || !/^\w{1,24}$/.test(id)) notFound()
  const { entity, attributes, window, city } = search.data
  const [t, tSite, cities] = await Promise.all([getTranslations('history'), getTranslations('site'), citiesNow()])
  const known = city === undefined ? cities[0] : cities.find((candidate) => candidate.tenant === city)
  return (
    <article className="page entity-history-page">
      <p>
        <SiteLink href={known ? `/?city=${encodeURIComponent(known.tenant)}` : '/'}>← {t('back')}</SiteLink>
      </p>
      {city !== undefined && !known ? (
        <>
          <h1>{t('title')}</h1>
          <p className="notice notice--warning" role="alert">
            {tSite('unknownCity', { city, shown: cities[0]?.name ?? '' })}
          </p>
        </>
      ) : (
        <HistoryView
          query={{ layerId: id, attributes, window, aggregation: window === 'hour' || window === 'day' ? 'raw' : 'avg', entity, city }}
          locale={locale}
          timeZone={timeZoneOfCity(known)}
        >
          {known && (
            <p className="entity-history-page__city">
              {tSite('city')}: <strong>{known.name}</strong>
            </p>
          )}
          <nav aria-label={t('period')} className="downloads">
            {historyWindows.map((option) => (
              <SiteLink key={option} className="button button--secondary" aria-current={option === window ? 'page' : undefined} href={`${entityHistoryPath(id, entity, attributes, city)}&window=${option}`}>
                {t(`windows.${option}`)}
              </SiteLink>
            ))}
          </nav>
        </HistoryView>
      )}
    </article>
  )
}
