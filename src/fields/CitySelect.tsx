'use client'
import { useField, useTranslation } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useEffect, useState } from 'react'

import { adminText } from '@/i18n/adminText'

import { PickedField, withStoredValues } from './PickedField'

type SiteCity = { name: string; tenant: string }

// Every city field of a page (one per block) shares one read of Site settings (public: the frontend reads them too).
let citiesRead: Promise<SiteCity[]> | undefined
const fetchSiteCities = () => {
  citiesRead ??= fetch('/api/globals/site-settings?depth=0', { credentials: 'include' })
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`)
      return response.json() as Promise<{ cities?: SiteCity[] | null }>
    })
    .then((settings) => settings.cities ?? [])
  citiesRead.catch(() => (citiesRead = undefined))
  return citiesRead
}

/** A city picked from Site settings → Cities (the server checks the same list on save). */
export const CitySelect: TextFieldClientComponent = (props) => {
  const { t } = useTranslation()
  const { value } = useField<string>({ potentiallyStalePath: props.path })
  const [cities, setCities] = useState<SiteCity[]>([])
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    fetchSiteCities()
      .then((found) => current && setCities(found))
      .catch((error: Error) => current && setProblem(error.message))
    return () => {
      current = false
    }
  }, [])

  const options = withStoredValues(
    cities.map((city) => ({ label: `${city.name} (${city.tenant})`, value: city.tenant })),
    value,
  )
  return (
    <div className="city-select">
      <PickedField props={props} options={options} />
      {problem !== null && <p role="alert">{adminText(t, 'citiesUnreadable', { problem })}</p>}
    </div>
  )
}
