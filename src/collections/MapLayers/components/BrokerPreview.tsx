'use client'
import { Button, useField, useFormFields, useTranslation } from '@payloadcms/ui'
import { useState } from 'react'

import { adminText, adminTextAround } from '@/i18n/adminText'

import { type BrokerPreviewResult, fetchBrokerPreview } from './brokerApi'

/** "**12** AirQualityObserved entities." */
function EntityCount({ preview }: { preview: BrokerPreviewResult }) {
  const { t } = useTranslation()
  const [before, after] = adminTextAround(t, 'brokerEntityCount', 'count', { type: preview.type })
  return (
    <p>
      {before}
      <strong>{preview.count ?? adminText(t, 'brokerUnknownCount')}</strong>
      {after}
    </p>
  )
}

/**
 * Shows what the broker holds for the chosen type: how many entities, which attributes, one
 * sample row, and which of the layer's attributes the broker does not know. Entity values are
 * untrusted: they are rendered as text only.
 */
export function BrokerPreview() {
  const { t } = useTranslation()
  const entityType = useFormFields(([fields]) => fields.entityType?.value as string | undefined)
  const tenant = useFormFields(([fields]) => fields['source.tenant']?.value as string | undefined)
  const { value: attributes, setValue: setAttributes } = useField<string[] | null>({ path: 'attributes' })
  const [preview, setPreview] = useState<BrokerPreviewResult | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const chosen = attributes ?? []

  const load = async () => {
    if (!entityType) return setProblem(adminText(t, 'brokerNeedsType'))
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
    <section aria-label={adminText(t, 'brokerPreview')} style={{ margin: '1rem 0', padding: '1rem', border: '1px solid var(--theme-elevation-150)' }}>
      <Button buttonStyle="secondary" size="small" onClick={load} disabled={loading}>
        {adminText(t, loading ? 'brokerAsking' : 'brokerPreviewButton')}
      </Button>
      {problem && <p role="alert">{problem}</p>}
      {preview && (
        <div>
          <EntityCount preview={preview} />
          {preview.unknownAttributes.length > 0 ? (
            <p role="alert">{adminText(t, 'brokerUnknownAttributes', { names: preview.unknownAttributes.join(', ') })}</p>
          ) : (
            chosen.length > 0 && <p>{adminText(t, 'brokerAllKnown')}</p>
          )}
          <p>{adminText(t, 'brokerAttributesToAdd')}</p>
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
              <summary>{adminText(t, 'brokerSampleEntity')}</summary>
              <pre style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{JSON.stringify(preview.sample, null, 2)}</pre>
            </details>
          )}
        </div>
      )}
    </section>
  )
}
