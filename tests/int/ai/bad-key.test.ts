import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type AiApp, callJson, startAiApp } from './app'

// A key without the vendor prefix (e.g. another vendor's key pasted by mistake).
const WRONG_KEY = 'sk-proj-not-a-gateway-key-123456'

let app: AiApp

beforeAll(async () => {
  // A gateway that would take any key: the app must not send it this one at all.
  app = await startAiApp({ enableAi: 'true', gateway: {}, apiKey: WRONG_KEY, roles: ['admin', 'editor'] })
})

afterAll(() => app?.close())

describe('a GATEWAY_API_KEY without the "sk-or-" prefix', () => {
  it('generation answers manual mode with a readable reason, without calling the gateway', async () => {
    const response = await callJson(app.baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'Map layers' } }, { token: app.tokens.editor })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { mode: string; message: string }
    expect(body.mode).toBe('manual')
    expect(body.message).toContain('invalid API key (gateway keys start with "sk-or-")')
    expect(body.message).not.toContain(WRONG_KEY)
    expect(app.gateway.requests).toHaveLength(0)
  })

  it('"Test the gateway" shows the warning naming GATEWAY_API_KEY and the key as not valid, without a request', async () => {
    const response = await callJson(app.baseUrl, 'POST', '/api/ai/gateway-test', undefined, { token: app.tokens.admin })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(WRONG_KEY)
    const body = JSON.parse(text) as { warning: string; key: { valid: boolean; problem: string } }
    expect(body.warning).toMatch(/^GATEWAY_API_KEY does not start with "sk-or-"/)
    expect(body.key).toEqual({ valid: false, problem: 'invalid API key (gateway keys start with "sk-or-")' })
    expect(app.gateway.requests).toHaveLength(0)
  })

  it('a citizen question is still received, and no job calls the gateway', async () => {
    const response = await callJson(app.baseUrl, 'POST', '/api/questions/ask', { question: 'When does the library open?' }, { ip: '198.51.100.77' })
    expect(response.status).toBe(201)
    expect(app.gateway.requests).toHaveLength(0)
  })
})
