'use client'

import { useTranslations } from 'next-intl'
import { useEffect, useState } from 'react'

import { usePresentation } from '@/layers/client/DashboardProvider'
import { EntityHistory } from '@/components/history/EntityHistory'
import { featureName, observedAgo } from '@/layers/shared/format'
import type { DashboardLayer } from '@/layers/shared/types'
import type { Feature } from '@/ngsi'

/** Entity values are untrusted: React renders them as text, never as HTML. */
export function FeaturePopup({ feature, layer, units, city }: { feature: Feature; layer: DashboardLayer; units: Record<string, string>; city: string }) {
  const alert = feature.properties.alert as { level?: string; message?: string } | undefined
  const now = useNow(30_000)
  const t = useTranslations('map')
  const presentation = usePresentation(layer.id, { city, units })
  const { locale, timeZone } = presentation.settings
  const ago = observedAgo(feature.properties.observedAt, now, locale)
  const observedAt = presentation.formatTime(feature.properties.observedAt as string | undefined)
  return (
    <div className="map-popup">
      <h3>{featureName(feature)}</h3>
      <p className="muted">{layer.name}</p>
      {alert?.message && <p className={`alert alert--${alert.level}`}>{alert.message}</p>}
      <dl>
        {layer.popupAttributes
          .filter((name) => name !== 'name')
          .map((name) => (
            <div key={name}>
              <dt>{presentation.attributeLabel(name)}</dt>
              <dd>{presentation.formatValue(name, feature.properties[name]) || '–'}</dd>
            </div>
          ))}
      </dl>
      {ago && (
        <p className="muted">
          {t.rich('observed', {
            ago,
            when: (chunks) => (
              <time dateTime={String(feature.properties.observedAt)} title={observedAt}>
                {chunks}
              </time>
            ),
          })}
        </p>
      )}
      <EntityHistory layerId={layer.id} feature={feature} attributes={layer.popupAttributes} city={city || undefined} locale={locale} timeZone={timeZone} />
    </div>
  )
}

/** The current time, refreshed every `intervalMs` so "N minutes ago" stays true while open. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}
