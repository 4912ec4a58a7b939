'use client'

import { useTranslations } from 'next-intl'
import { type ReactNode, useEffect } from 'react'

import { HistoryChart, type HistoryQuery, useHistory } from './HistoryChart'

/**
 * The full history page's heading and chart: the heading names the place once its history has
 * come (the page is rendered before the broker is asked), and so does the document's title.
 * `children` (the city, the periods) go between the two.
 */
export function HistoryView({ query, locale, timeZone, children }: { query: HistoryQuery; locale: string; timeZone: string; children: ReactNode }) {
  const t = useTranslations('dashboard.history')
  const loaded = useHistory(query)
  const place = loaded.status === 'ready' ? (loaded.history.entity?.name ?? loaded.history.entity?.id) : undefined
  const heading = place ? t('pageTitleOf', { name: place }) : t('pageTitle')
  useEffect(() => {
    if (!place) return
    const [, site] = document.title.split(' · ')
    document.title = site ? `${heading} · ${site}` : heading
  }, [place, heading])
  return (
    <>
      <h1>{heading}</h1>
      {children}
      <HistoryChart query={query} locale={locale} timeZone={timeZone} loaded={loaded} />
    </>
  )
}
