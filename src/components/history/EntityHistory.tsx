'use client'

import { useTranslations } from 'next-intl'
import { useState } from 'react'

import { SiteLink } from '@/components/SiteLink'
import { featureName } from '@/layers/shared/format'
import { entityHistoryPath } from '@/layers/shared/history'
import type { Feature } from '@/ngsi'

import { HistoryChart } from './HistoryChart'

/** The attributes of an entity worth charting: those with a number now (at most 8, as the route takes). */
export const numericAttributes = (feature: Feature, attributes: string[]) =>
  attributes.filter((name) => name !== 'name' && typeof feature.properties[name] === 'number').slice(0, 8)

/** An entity's last 24 hours as a small chart, opened on request, and a link to its full history. */
export function EntityHistory({
  layerId,
  feature,
  attributes,
  city,
  locale,
  timeZone,
}: {
  layerId: string
  feature: Feature
  attributes: string[]
  city?: string
  /** The page's language and the city's time zone, for the chart's numbers and times. */
  locale?: string
  timeZone?: string
}) {
  const [open, setOpen] = useState(false)
  const t = useTranslations('dashboard.history')
  const charted = numericAttributes(feature, attributes)
  if (charted.length === 0) return null
  const entity = String(feature.id)
  return (
    <div className="entity-history">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t('hide') : t('show')}
      </button>
      {open && (
        <>
          <HistoryChart compact query={{ layerId, attributes: charted, window: 'day', aggregation: 'raw', entity, city }} title={featureName(feature)} locale={locale} timeZone={timeZone} />
          {/* In the reader's language (the locale prefix), with the city. */}
          <SiteLink href={entityHistoryPath(layerId, entity, charted, city)}>{t('full')}</SiteLink>
        </>
      )}
    </div>
  )
}
