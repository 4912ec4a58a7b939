'use client'
import { Button, useTranslation } from '@payloadcms/ui'
import { useState } from 'react'

import type { GatewayCheck, ModelAvailability } from '@/ai/server/gateway/check'
import { type AdminMessage, adminText } from '@/i18n/adminText'

type Result = GatewayCheck & { enabled: boolean; warning?: string }

const AVAILABILITY: Record<ModelAvailability, AdminMessage> = {
  found: 'gatewayModelFound',
  free: 'gatewayModelFree',
  unknown: 'gatewayModelUnknown',
}

/**
 * "Test the gateway": asks POST /api/ai/gateway-test whether the key is valid and which models of
 * the chain the gateway lists, before anyone relies on them. Shows the server's key warning.
 */
export function TestGatewayButton({ warning }: { warning?: string }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<Result | null>(null)
  const [error, setError] = useState<string | null>(null)

  const test = async () => {
    setBusy(true)
    setError(null)
    try {
      const response = await fetch('/api/ai/gateway-test', { method: 'POST', credentials: 'include' })
      const body = (await response.json().catch(() => ({}))) as Result & { error?: string }
      if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`)
      setResult(body)
    } catch (reason) {
      setResult(null)
      setError((reason as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="field-type gateway-status" style={{ marginBottom: '1.5rem' }}>
      {warning && (
        <p role="alert" style={{ color: 'var(--theme-error-500)' }}>
          {warning}
        </p>
      )}
      <Button buttonStyle="secondary" size="small" onClick={test} disabled={busy}>
        {adminText(t, busy ? 'gatewayTesting' : 'gatewayTest')}
      </Button>
      <div role="status">
        {error && <p>{error}</p>}
        {result && (
          <>
            {!result.enabled && <p>{adminText(t, 'gatewayAiOff')}</p>}
            <p>
              {result.key.valid
                ? adminText(t, result.key.isFreeTier ? 'gatewayKeyValidFree' : 'gatewayKeyValid')
                : adminText(t, 'gatewayKeyInvalid', { problem: result.key.problem ?? adminText(t, 'gatewayKeyRefused') })}
            </p>
            {result.modelsProblem && <p>{adminText(t, 'gatewayModelsUnreadable', { problem: result.modelsProblem })}</p>}
            <ol>
              {result.models.map((model) => (
                <li key={model.id}>
                  <code>{model.id}</code>: {adminText(t, AVAILABILITY[model.availability])}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </div>
  )
}
