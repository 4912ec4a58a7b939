'use client'

import { useLocale, useTranslations } from 'next-intl'
import { useEffect, useState } from 'react'

import { usePageCity, useReaderSettings } from '@/layers/client/DashboardProvider'
import { formatDateTimeWithZone } from '@/i18n/format'
import type { WeatherReport } from '@/upstreams'

type City = { name: string; tenant: string; latitude: number; longitude: number }

type State = { status: 'loading' } | { status: 'ready'; report: WeatherReport } | { status: 'error' }

/** The proxy caches for ten minutes: asking more often shows nothing new. */
const REFRESH_MS = 10 * 60_000

const formatNumber = (value: number | null, unit: string, locale: string, digits = 0) =>
  value === null ? '–' : `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${unit}`

/** The block's city, else the page's (which the city switcher changes), else the first. */
export function WeatherPanel({ title, cities, blockCity }: { title: string; cities: City[]; blockCity?: string }) {
  const pageCity = usePageCity()
  const t = useTranslations('dashboard.weather')
  // The page's language: the server writes the conditions in it.
  const locale = useLocale()
  const city = cities.find((known) => known.tenant === (blockCity || pageCity)) ?? cities[0]
  const [state, setState] = useState<State>({ status: 'loading' })

  useEffect(() => {
    let cancelled = false
    const load = async () => {
      try {
        const response = await fetch(`/api/weather?${new URLSearchParams({ lat: String(city.latitude), lon: String(city.longitude), lang: locale })}`)
        const body = (await response.json().catch(() => ({}))) as WeatherReport & { error?: string }
        if (cancelled) return
        if (response.ok) setState({ status: 'ready', report: body })
        else setState({ status: 'error' })
      } catch {
        if (!cancelled) setState({ status: 'error' })
      }
    }
    void load()
    const timer = setInterval(load, REFRESH_MS)
    return () => {
      cancelled = true
      clearInterval(timer)
    }
  }, [city.latitude, city.longitude, locale])

  return (
    <section className="block weather-now" aria-labelledby={`weather-${city.tenant}`} aria-busy={state.status === 'loading'}>
      <h2 id={`weather-${city.tenant}`}>
        {title} <span className="muted">· {city.name}</span>
      </h2>
      {state.status === 'loading' && <p className="muted">{t('loading')}</p>}
      {state.status === 'error' && <p className="data-status data-status--error">{t('failed')}</p>}
      {state.status === 'ready' && <Report report={state.report} city={city.tenant} />}
    </section>
  )
}

function Report({ report, city }: { report: WeatherReport; city: string }) {
  const t = useTranslations('dashboard.weather')
  // The observation time in the city's time zone, as every other time on the page.
  const { locale, timeZone } = useReaderSettings(city)
  return (
    <>
      <p className="weather-now__temperature">
        {formatNumber(report.temperatureC, '°C', locale, 1)}
        {report.condition && <span className="muted"> {report.condition.description}</span>}
      </p>
      <dl>
        <div>
          <dt>{t('feelsLike')}</dt>
          <dd>{formatNumber(report.feelsLikeC, '°C', locale, 1)}</dd>
        </div>
        <div>
          <dt>{t('humidity')}</dt>
          <dd>{formatNumber(report.humidityPercent, '%', locale)}</dd>
        </div>
        <div>
          <dt>{t('wind')}</dt>
          <dd>{formatNumber(report.windSpeedMs, 'm/s', locale, 1)}</dd>
        </div>
        <div>
          <dt>{t('pressure')}</dt>
          <dd>{formatNumber(report.pressureHpa, 'hPa', locale)}</dd>
        </div>
      </dl>
      <p className="muted">
        {t.rich('observed', {
          time: formatDateTimeWithZone(report.observedAt, locale, timeZone),
          when: (chunks) => <time dateTime={report.observedAt}>{chunks}</time>,
        })}
        {report.location.name && ` · ${t('station', { name: report.location.name })}`}
      </p>
    </>
  )
}
