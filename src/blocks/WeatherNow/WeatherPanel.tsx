'use client'

import { useEffect, useState } from 'react'

import { usePageCity } from '@/components/dashboard/DashboardProvider'
import type { WeatherReport } from '@/upstreams'

type City = { name: string; tenant: string; latitude: number; longitude: number }

type State = { status: 'loading' } | { status: 'ready'; report: WeatherReport } | { status: 'error'; message: string }

/** The proxy caches for ten minutes: asking more often shows nothing new. */
const REFRESH_MS = 10 * 60_000

const formatNumber = (value: number | null, unit: string, digits = 0) =>
  value === null ? '–' : `${value.toLocaleString('en', { maximumFractionDigits: digits })} ${unit}`

/** The block's city, else the page's (which the city switcher changes), else the first. */
export function WeatherPanel({ title, cities, blockCity }: { title: string; cities: City[]; blockCity?: string }) {
  const pageCity = usePageCity()
  const city = cities.find((known) => known.tenant === (blockCity || pageCity)) ?? cities[0]
  const [state, setState] = useState<State>({ status: 'loading' })

  useEffect(() => {
    let cancelled = false
    const load = async () => {
      try {
        const response = await fetch(`/api/weather?${new URLSearchParams({ lat: String(city.latitude), lon: String(city.longitude) })}`)
        const body = (await response.json().catch(() => ({}))) as WeatherReport & { error?: string }
        if (cancelled) return
        if (response.ok) setState({ status: 'ready', report: body })
        else setState({ status: 'error', message: 'The weather cannot be loaded right now.' })
      } catch {
        if (!cancelled) setState({ status: 'error', message: 'The weather cannot be loaded right now.' })
      }
    }
    void load()
    const timer = setInterval(load, REFRESH_MS)
    return () => {
      cancelled = true
      clearInterval(timer)
    }
  }, [city.latitude, city.longitude])

  return (
    <section className="block weather-now" aria-labelledby={`weather-${city.tenant}`} aria-busy={state.status === 'loading'}>
      <h2 id={`weather-${city.tenant}`}>
        {title} <span className="muted">· {city.name}</span>
      </h2>
      {state.status === 'loading' && <p className="muted">Loading the weather…</p>}
      {state.status === 'error' && <p className="data-status data-status--error">{state.message}</p>}
      {state.status === 'ready' && <Report report={state.report} />}
    </section>
  )
}

function Report({ report }: { report: WeatherReport }) {
  const observed = new Date(report.observedAt)
  return (
    <>
      <p className="weather-now__temperature">
        {formatNumber(report.temperatureC, '°C', 1)}
        {report.condition && <span className="muted"> {report.condition.description}</span>}
      </p>
      <dl>
        <div>
          <dt>Feels like</dt>
          <dd>{formatNumber(report.feelsLikeC, '°C', 1)}</dd>
        </div>
        <div>
          <dt>Humidity</dt>
          <dd>{formatNumber(report.humidityPercent, '%')}</dd>
        </div>
        <div>
          <dt>Wind</dt>
          <dd>{formatNumber(report.windSpeedMs, 'm/s', 1)}</dd>
        </div>
        <div>
          <dt>Pressure</dt>
          <dd>{formatNumber(report.pressureHpa, 'hPa')}</dd>
        </div>
      </dl>
      <p className="muted">
        Observed at{' '}
        <time dateTime={report.observedAt}>
          {observed.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC
        </time>
        {report.location.name && ` · station: ${report.location.name}`}
      </p>
    </>
  )
}
