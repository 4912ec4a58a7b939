'use client'
import { TextField, useField, useFormFields, useTranslation } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useEffect, useState } from 'react'

import { fetchBrokerTypes } from './brokerApi'
import { PickedField, withStoredValues } from '@/fields/PickedField'
import { adminText } from '@/i18n/adminText'

/**
 * The entity type, picked from the types the broker reports for the layer's city. Only when the
 * broker cannot be asked is it typed (an outage must not stop an editor).
 */
export const EntityTypeField: TextFieldClientComponent = (props) => {
  const { t } = useTranslation()
  const { value } = useField<string>({ potentiallyStalePath: props.path })
  const tenant = useFormFields(([fields]) => fields['source.tenant']?.value as string | undefined)
  const asked = tenant ?? ''
  const [answer, setAnswer] = useState<{ asked: string; types: string[] | null; problem?: string } | null>(null)

  useEffect(() => {
    let current = true
    fetchBrokerTypes(asked || undefined)
      .then((found) => current && setAnswer({ asked, types: found.types }))
      .catch((error: Error) => current && setAnswer({ asked, types: null, problem: error.message }))
    return () => {
      current = false
    }
  }, [asked])

  const settled = answer?.asked === asked ? answer : null
  const types = settled?.types ?? null
  const problem = settled?.problem ? adminText(t, 'entityTypesUnreadable', { problem: settled.problem }) : null

  if (problem) {
    return (
      <div className="entity-type-field">
        <TextField {...props} />
        <p role="alert">{problem}</p>
      </div>
    )
  }
  const options = withStoredValues((types ?? []).map((type) => ({ label: type, value: type })), value)
  return (
    <div className="entity-type-field">
      <PickedField props={props} options={options} />
      {!settled && <p className="field-description">{adminText(t, 'entityTypesAsking')}</p>}
      {types?.length === 0 && <p className="field-description">{adminText(t, 'entityTypesNone')}</p>}
    </div>
  )
}
