'use client'
import { type FormEvent, useState } from 'react'

type Layer = { id: string; name: string; fixedCity?: string }
type City = { name: string; tenant: string }
type Outcome = { kind: 'sent' | 'error'; message: string }

const TEXT = {
  formLabel: 'Subscribe to alert notices',
  email: 'Your email address',
  layer: 'Alerts of',
  city: 'City',
  level: 'Tell me about',
  levels: { info: 'All alerts', warning: 'Warnings and critical alerts', critical: 'Critical alerts only' },
  quiet: 'Hold notices during quiet hours and send them as one digest when they end',
  from: 'Quiet from',
  until: 'until',
  submit: 'Subscribe',
  sending: 'Sending…',
  failed: (status: number) => `The subscription could not be sent (${status}).`,
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`
const field = { font: 'inherit', minHeight: 44 } as const

/** Posts to /api/alerts/subscribe; the answer is the same whether or not the address was known. */
export function SubscribeForm({ layers, cities, initialLayer, initialCity }: { layers: Layer[]; cities: City[]; initialLayer?: string; initialCity?: string }) {
  const [layerId, setLayerId] = useState(initialLayer)
  const [quiet, setQuiet] = useState(false)
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const layer = layers.find((candidate) => candidate.id === layerId)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const city = String(data.get('city') ?? '')
    setSending(true)
    setOutcome(null)
    try {
      const response = await fetch('/api/alerts/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: String(data.get('email') ?? ''),
          layer: String(data.get('layer') ?? ''),
          ...(city && !layer?.fixedCity ? { city } : {}),
          minimumLevel: String(data.get('level') ?? 'warning'),
          ...(quiet
            ? {
                quietHours: {
                  from: Number(data.get('quietFrom')),
                  until: Number(data.get('quietUntil')),
                  // The reader's own clock: quiet hours are theirs.
                  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
                },
              }
            : {}),
        }),
      })
      const body = (await response.json().catch(() => ({}))) as { message?: string; error?: string }
      if (!response.ok) throw new Error(body.error ?? TEXT.failed(response.status))
      setOutcome({ kind: 'sent', message: body.message ?? '' })
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof Error ? error.message : TEXT.failed(0) })
    } finally {
      setSending(false)
    }
  }

  return (
    <form onSubmit={submit} className="cta-block" aria-label={TEXT.formLabel}>
      <p>
        <label htmlFor="alert-email">{TEXT.email}</label>
        <br />
        <input id="alert-email" name="email" type="email" required maxLength={254} autoComplete="email" style={{ ...field, width: '100%' }} />
      </p>
      <p>
        <label htmlFor="alert-layer">{TEXT.layer}</label>{' '}
        <select id="alert-layer" name="layer" value={layerId} onChange={(event) => setLayerId(event.target.value)} style={field}>
          {layers.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </p>
      {cities.length > 1 && !layer?.fixedCity && (
        <p>
          <label htmlFor="alert-city">{TEXT.city}</label>{' '}
          <select id="alert-city" name="city" defaultValue={initialCity} style={field}>
            {cities.map((city) => (
              <option key={city.tenant} value={city.tenant}>
                {city.name}
              </option>
            ))}
          </select>
        </p>
      )}
      <fieldset>
        <legend>{TEXT.level}</legend>
        {(['info', 'warning', 'critical'] as const).map((level) => (
          <label key={level} style={{ display: 'block', minHeight: 32 }}>
            <input type="radio" name="level" value={level} defaultChecked={level === 'warning'} /> {TEXT.levels[level]}
          </label>
        ))}
      </fieldset>
      <p>
        <label>
          <input type="checkbox" name="quiet" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} /> {TEXT.quiet}
        </label>
      </p>
      {quiet && (
        <p>
          <label htmlFor="alert-quiet-from">{TEXT.from}</label>{' '}
          <select id="alert-quiet-from" name="quietFrom" defaultValue={22} style={field}>
            {HOURS.map((hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>{' '}
          <label htmlFor="alert-quiet-until">{TEXT.until}</label>{' '}
          <select id="alert-quiet-until" name="quietUntil" defaultValue={7} style={field}>
            {HOURS.map((hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
        </p>
      )}
      <button type="submit" className="button button--secondary" disabled={sending}>
        {sending ? TEXT.sending : TEXT.submit}
      </button>
      <p role="status">{outcome?.message}</p>
    </form>
  )
}
