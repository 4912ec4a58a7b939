'use client'
import { useLocale, useTranslations } from 'next-intl'
import { useState } from 'react'

import { fieldText, useFormSubmit } from '@/components/useFormSubmit'
import { formatHour } from '@/i18n/format'

type Layer = { id: string; name: string; fixedCity?: string }
type City = { name: string; tenant: string }

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)
const field = { font: 'inherit', minHeight: 44 } as const

/** Posts to /api/alerts/subscribe; the answer is the same whether or not the address was known. */
export function SubscribeForm({ layers, cities, initialLayer, initialCity }: { layers: Layer[]; cities: City[]; initialLayer?: string; initialCity?: string }) {
  const [layerId, setLayerId] = useState(initialLayer)
  const [quiet, setQuiet] = useState(false)
  const t = useTranslations('forms.subscribe')
  const layer = layers.find((candidate) => candidate.id === layerId)

  const { submit, sending, outcome } = useFormSubmit({
    url: '/api/alerts/subscribe',
    body: (data) => {
      const city = fieldText(data, 'city')
      return {
        email: fieldText(data, 'email'),
        layer: fieldText(data, 'layer'),
        ...(city && !layer?.fixedCity ? { city } : {}),
        minimumLevel: fieldText(data, 'level') || 'warning',
        // The reader's own clock: quiet hours are theirs.
        ...(quiet && { quietHours: { from: Number(data.get('quietFrom')), until: Number(data.get('quietUntil')), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' } }),
      }
    },
    // The server's answer is the same for every address (SUBSCRIBE_ANSWER): said in the reader's language.
    sent: () => t('sent'),
    failed: (status) => (status ? t('failedStatus', { status }) : t('failed')),
  })

  return (
    <form onSubmit={submit} className="cta-block" aria-label={t('formLabel')}>
      <p>
        <label htmlFor="alert-email">{t('email')}</label>
        <br />
        <input id="alert-email" name="email" type="email" required maxLength={254} autoComplete="email" style={{ ...field, width: '100%' }} />
      </p>
      <p>
        <label htmlFor="alert-layer">{t('layer')}</label>{' '}
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
          <label htmlFor="alert-city">{t('city')}</label>{' '}
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
        <legend>{t('level')}</legend>
        {(['info', 'warning', 'critical'] as const).map((level) => (
          <label key={level} style={{ display: 'block', minHeight: 32 }}>
            <input type="radio" name="level" value={level} defaultChecked={level === 'warning'} /> {t(`levels.${level}`)}
          </label>
        ))}
      </fieldset>
      <p>
        <label>
          <input type="checkbox" name="quiet" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} /> {t('quiet')}
        </label>
      </p>
      {quiet && <QuietHoursFields />}
      <button type="submit" className="button button--secondary" disabled={sending}>
        {sending ? t('sending') : t('submit')}
      </button>
      <p role="status">{outcome?.message}</p>
    </form>
  )
}

/** The hours during which no notice is sent (the reader's own clock), each in the reader's locale. */
function QuietHoursFields() {
  const t = useTranslations('forms.subscribe')
  return (
    <p>
      <label htmlFor="alert-quiet-from">{t('from')}</label> <HourSelect id="alert-quiet-from" name="quietFrom" defaultValue={22} />{' '}
      <label htmlFor="alert-quiet-until">{t('until')}</label> <HourSelect id="alert-quiet-until" name="quietUntil" defaultValue={7} />
    </p>
  )
}

/** The 24 hours of a day, written as the reader's locale writes them. */
function HourSelect({ id, name, defaultValue }: { id: string; name: string; defaultValue: number }) {
  const locale = useLocale()
  return (
    <select id={id} name={name} defaultValue={defaultValue} style={field}>
      {HOURS.map((hour) => (
        <option key={hour} value={hour}>
          {formatHour(hour, locale)}
        </option>
      ))}
    </select>
  )
}
