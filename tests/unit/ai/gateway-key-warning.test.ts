import { describe, expect, it } from 'vitest'

import { redactKeys } from '@/ai/server/gateway'
import { gatewayKeyWarning } from '@/ai/entry/settings'

describe('the start-up warning about GATEWAY_API_KEY', () => {
  it('names the setting when the key lacks the vendor prefix or is missing, and never shows the key', () => {
    const warning = gatewayKeyWarning({ ENABLE_AI: true, GATEWAY_API_KEY: 'sk-proj-secret-value' })
    expect(warning).toMatch(/^GATEWAY_API_KEY does not start with "sk-or-"/)
    expect(warning).toContain('manual mode')
    expect(warning).not.toContain('secret-value')
    expect(gatewayKeyWarning({ ENABLE_AI: true, GATEWAY_API_KEY: undefined })).toMatch(/^GATEWAY_API_KEY is not set/)
  })

  it('is silent for a gateway key, or when AI is off', () => {
    expect(gatewayKeyWarning({ ENABLE_AI: true, GATEWAY_API_KEY: 'sk-or-v1-abc' })).toBeUndefined()
    expect(gatewayKeyWarning({ ENABLE_AI: false, GATEWAY_API_KEY: 'nonsense' })).toBeUndefined()
  })
})

describe('redactKeys', () => {
  it('hides keys but leaves the bare prefix of a hint readable', () => {
    expect(redactKeys('key sk-or-v1-0123abcd failed')).toBe('key sk-or-*** failed')
    expect(redactKeys('gateway keys start with "sk-or-"')).toBe('gateway keys start with "sk-or-"')
  })
})
