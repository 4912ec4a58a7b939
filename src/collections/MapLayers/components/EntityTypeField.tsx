'use client'
import { Button, TextField, useField, useFormFields } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useState } from 'react'

import { fetchBrokerTypes } from './brokerApi'

/** The entity type, typed or picked from the types the broker reports for the layer's tenant. */
export const EntityTypeField: TextFieldClientComponent = (props) => {
  const { setValue } = useField<string>({ path: props.path })
  const tenant = useFormFields(([fields]) => fields['source.tenant']?.value as string | undefined)
  const [types, setTypes] = useState<string[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)

  const loadTypes = async () => {
    setLoading(true)
    setProblem(null)
    try {
      setTypes((await fetchBrokerTypes(tenant || undefined)).types)
    } catch (error) {
      setProblem((error as Error).message)
    } finally {
      setLoading(false)
    }
  }

  return (
    <div className="entity-type-field">
      <TextField {...props} />
      <Button buttonStyle="secondary" size="small" onClick={loadTypes} disabled={loading}>
        {loading ? 'Asking the broker…' : 'Pick from the broker’s types'}
      </Button>
      {problem && <p role="alert">{problem}</p>}
      {types && types.length === 0 && <p>The broker reports no entity types for this tenant.</p>}
      {types && types.length > 0 && (
        <ul aria-label="Entity types on the broker" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, listStyle: 'none', padding: 0 }}>
          {types.map((type) => (
            <li key={type}>
              <Button buttonStyle="pill" size="small" onClick={() => setValue(type)}>
                {type}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
