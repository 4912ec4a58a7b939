'use client'
import { Button, useField, useFormFields } from '@payloadcms/ui'
import { useState } from 'react'

import { type BrokerPreviewResult, fetchBrokerPreview } from './brokerApi'

/**
 * Shows what the broker holds for the chosen type: how many entities, which attributes, one
 * sample row, and which of the layer's attributes the broker does not know. Entity values are
 * untrusted: they are rendered as text only.
 */
export function BrokerPreview() {
  const entityType = useFormFields(([fields]) => fields.entityType?.value as string | undefined)
  const tenant = useFormFields(([fields]) => fields['source.tenant']?.value as string | undefined)
  const { value: attributes, setValue: setAttributes } = useField<string[] | null>({ path: 'attributes' })
  const [preview, setPreview] = useState<BrokerPreviewResult | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const chosen = attributes ?? []

  const load = async () => {
    if (!entityType) return setProblem('Choose an entity type first.')
    setLoading(true)
    setProblem(null)
    try {
      setPreview(await fetchBrokerPreview(entityType, tenant || undefined, chosen))
    } catch (error) {
      setPreview(null)
      setProblem((error as Error).message)
    } finally {
      setLoading(false)
    }
  }

  return (
    <section aria-label="Broker preview" style={{ margin: '1rem 0', padding: '1rem', border: '1px solid var(--theme-elevation-150)' }}>
      <Button buttonStyle="secondary" size="small" onClick={load} disabled={loading}>
        {loading ? 'Asking the broker…' : 'Preview and check against the broker'}
      </Button>
      {problem && <p role="alert">{problem}</p>}
      {preview && (
        <div>
          <p>
            <strong>{preview.count ?? 'An unknown number of'}</strong> {preview.type} entities.
          </p>
          {preview.unknownAttributes.length > 0 ? (
            <p role="alert">The broker does not know: {preview.unknownAttributes.join(', ')}</p>
          ) : (
            chosen.length > 0 && <p>All chosen attributes exist on the broker.</p>
          )}
          <p>Attributes on the broker (click to add):</p>
          <ul style={{ display: 'flex', flexWrap: 'wrap', gap: 8, listStyle: 'none', padding: 0 }}>
            {preview.attributes.map((name) => (
              <li key={name}>
                <Button
                  buttonStyle="pill"
                  size="small"
                  disabled={chosen.includes(name)}
                  onClick={() => setAttributes([...chosen, name])}
                >
                  {name}
                </Button>
              </li>
            ))}
          </ul>
          {preview.sample && (
            <details>
              <summary>A sample entity</summary>
              <pre style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{JSON.stringify(preview.sample, null, 2)}</pre>
            </details>
          )}
        </div>
      )}
    </section>
  )
}
