import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { AI_DISABLED_MESSAGE, GatewayClient, runAiTask, type FallbackModeSettings, type GatewayConfig } from '@/ai/server'

import { closedPortUrl, reply, startFakeGateway, type FakeGateway } from '../../fakes/gateway'

const KEY = 'sk-or-v1-fallback-secret'

let gateway: FakeGateway
beforeAll(async () => {
  gateway = await startFakeGateway({ knownModels: ['a/one', 'b/two:free', 'c/three', 'd/four'] })
})
afterAll(() => gateway.close())
afterEach(() => gateway.reset())

const config = (overrides: Partial<GatewayConfig> = {}): GatewayConfig => ({ url: gateway.url, apiKey: KEY, ...overrides })

// Manual mode, as every route meets it: through runAiTask.
const run = (settings: FallbackModeSettings) => runAiTask(settings, 'documentation', { topic: 'Map layers' })

describe('manual mode', () => {
  it('returns manual mode without a request when AI is disabled', async () => {
    const result = await run({ enabled: false, gateway: config() })
    expect(result).toMatchObject({ mode: 'manual', content: '', message: AI_DISABLED_MESSAGE })
    expect(result.message).toMatch(/manually/)
    expect(gateway.requests).toHaveLength(0)
  })

  it('returns the content in ai mode when generation works', async () => {
    gateway.script(reply.error(503, { model: 'a/one' }), reply.success('Generated', { model: 'c/three' }))
    const result = await run({ enabled: true, gateway: new GatewayClient(config()), models: ['a/one', 'c/three'] })
    expect(result).toMatchObject({ mode: 'ai', content: 'Generated', model: 'c/three' })
  })

  it('returns manual mode with a short reason when the gateway is down', async () => {
    const errors: unknown[] = []
    const result = await run({ enabled: true, gateway: { url: await closedPortUrl(), apiKey: KEY }, onError: (error) => errors.push(error) })
    expect(result.mode).toBe('manual')
    expect(result.content).toBe('')
    expect(result.message).toMatch(/AI generation failed \(.*gateway unreachable.*\)\. Please enter the content manually\./)
    expect(result.message).not.toContain(KEY)
    expect(errors).toHaveLength(1)
  })

  it('returns manual mode for a bad key and every model failing, never showing the key', async () => {
    const badKey = await run({ enabled: true, gateway: config({ apiKey: 'not-a-gateway-key' }) })
    expect(badKey.mode).toBe('manual')
    expect(badKey.message).toContain('invalid API key')
    expect(badKey.message).not.toContain('not-a-gateway-key')

    gateway.script(reply.error(401, { message: `No user for key ${KEY}` }))
    const rejected = await run({ enabled: true, gateway: config({ model: 'a/one' }) })
    expect(rejected.message).toContain('invalid API key')
    expect(rejected.message).not.toContain(KEY)

    gateway.script(reply.error(404, { model: 'a/one' }), reply.dailyCap({ model: 'b/two:free' }))
    const allFailed = await run({ enabled: true, gateway: config(), models: ['a/one', 'b/two:free'] })
    expect(allFailed.mode).toBe('manual')
    expect(allFailed.message).toContain('all AI models failed')
    expect(allFailed.message).toContain('a/one')
  })

  it('returns manual mode when enabled without a gateway', async () => {
    const result = await run({ enabled: true })
    expect(result).toMatchObject({ mode: 'manual', content: '' })
    expect(result.message).toMatch(/not configured/)
  })
})
