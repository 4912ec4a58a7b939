'use client'
import { useDocumentInfo, useTranslation } from '@payloadcms/ui'
import { useEffect, useState } from 'react'

import { type AdminTranslate, adminText } from '@/i18n/adminText'

type CityStatus = { tenant: string; mode: 'live' | 'polling'; reason?: string }

const modeOf = (t: AdminTranslate, city: CityStatus) =>
  city.mode === 'live' ? adminText(t, 'livePushed') : city.reason ? adminText(t, 'livePollingBecause', { reason: city.reason }) : adminText(t, 'livePolling')

/** Whether the saved layer gets its changes pushed (a working broker subscription per city) or polls, and why. */
export function LiveStatus() {
  const { t } = useTranslation()
  const { id } = useDocumentInfo()
  const [status, setStatus] = useState<{ enabled: boolean; cities: CityStatus[] } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (!id) return
    let cancelled = false
    fetch(`/api/map-layers/${encodeURIComponent(String(id))}/live`, { credentials: 'include' })
      .then(async (response) => {
        const body = (await response.json()) as { enabled: boolean; cities: CityStatus[]; error?: string }
        if (!response.ok) throw new Error(body.error ?? `${response.status}`)
        if (!cancelled) setStatus(body)
      })
      .catch((error: Error) => !cancelled && setProblem(error.message))
    return () => {
      cancelled = true
    }
  }, [id])

  if (!id) return null
  return (
    <section aria-label={adminText(t, 'liveUpdates')} className="layer-live-status" style={{ margin: '1rem 0' }}>
      <strong>{adminText(t, 'liveUpdates')}: </strong>
      {problem && <span role="alert">{problem}</span>}
      {status && !status.enabled && <span>{adminText(t, 'liveOff')}</span>}
      {status?.enabled && status.cities.length === 0 && <span>{adminText(t, 'liveNoSubscription')}</span>}
      {status?.enabled && status.cities.length > 0 && (
        <ul>
          {status.cities.map((city) => (
            <li key={city.tenant}>
              {city.tenant || adminText(t, 'liveDefaultTenant')}: {modeOf(t, city)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
