'use client'
import { useDocumentInfo } from '@payloadcms/ui'
import { useEffect, useState } from 'react'

type CityStatus = { tenant: string; mode: 'live' | 'polling'; reason?: string }

/** Whether the saved layer gets its changes pushed (a working broker subscription per city) or polls, and why. */
export function LiveStatus() {
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
    <section aria-label="Live updates" className="layer-live-status" style={{ margin: '1rem 0' }}>
      <strong>Live updates: </strong>
      {problem && <span role="alert">{problem}</span>}
      {status && !status.enabled && <span>off on this server (LIVE_UPDATES=false); pages poll.</span>}
      {status?.enabled && status.cities.length === 0 && <span>no subscription (the layer is not public and no one watches it); pages poll.</span>}
      {status?.enabled && status.cities.length > 0 && (
        <ul>
          {status.cities.map((city) => (
            <li key={city.tenant}>
              {city.tenant || 'default tenant'}: {city.mode === 'live' ? 'live (the broker pushes changes)' : `polling${city.reason ? `: ${city.reason}` : ''}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
