import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { AiDraft } from '@/payload-types'

import { reply } from '../../fakes/gateway'
import { type Role, ROLES } from '../../helpers/accounts'
import { type AiApp, callJson, GATEWAY_KEY, GATEWAY_MODEL, startAiApp } from './app'

// GATEWAY_MODEL (paid) first, then a paid and a free fallback; no GATEWAY_SITE_URL.
const PAID_FALLBACK = 'anthropic/claude-3.5-haiku'
const FREE_FALLBACK = 'meta-llama/llama-3.3-70b-instruct:free'
const PUBLIC_SERVER_URL = 'http://127.0.0.1:3000'

let app: AiApp

const generate = (role: Role = 'editor') =>
  callJson(app.baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'Map layers' } }, { token: app.tokens[role] })
const askedModels = () => app.gateway.chatRequests.map((request) => (request.body as { model: string }).model)
const testGateway = (role: Role | 'anonymous') =>
  callJson(app.baseUrl, 'POST', '/api/ai/gateway-test', undefined, { token: role === 'anonymous' ? null : app.tokens[role] })

beforeAll(async () => {
  app = await startAiApp({
    enableAi: 'true',
    fallbackModels: `${PAID_FALLBACK}, ${FREE_FALLBACK}`,
    siteUrl: '',
    roles: ROLES,
  })
})

afterAll(() => app?.close())

beforeEach(() => app.gateway.reset())

describe('POST /api/ai/generate along the model chain', () => {
  it('first model 402, the next paid one skipped, the :free one writes the draft: pending_review, written by it', async () => {
    app.gateway.script(reply.error(402, { model: GATEWAY_MODEL }), reply.success('Map layers show live data.', { model: FREE_FALLBACK }))
    const response = await generate()
    expect(response.status, await response.clone().text()).toBe(201)
    const { draft } = (await response.json()) as { draft: AiDraft }
    expect(draft).toMatchObject({ status: 'pending_review', model: FREE_FALLBACK, draft: 'Map layers show live data.' })
    expect(askedModels()).toEqual([GATEWAY_MODEL, FREE_FALLBACK])

    // What failed before is part of the draft, for the reviewer (read through REST as the admin does).
    const stored = (await (await callJson(app.baseUrl, 'GET', `/api/ai-drafts/${draft.id}?depth=0`, undefined, { token: app.tokens.editor })).json()) as AiDraft
    expect(stored.failedModels?.map(({ model, reason }) => ({ model, reason }))).toEqual([
      { model: GATEWAY_MODEL, reason: "insufficient credits; try a ':free' model" },
      { model: PAID_FALLBACK, reason: 'skipped: no credits left for paid models' },
    ])
    // Nobody rewrites that record afterwards.
    const patched = await callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${draft.id}`, { failedModels: [] , model: 'x/y' }, { token: app.tokens.editor })
    expect(patched.status).toBe(200)
    expect((await app.payload.findByID({ collection: 'ai-drafts', id: draft.id, depth: 0 })).failedModels).toHaveLength(2)
  })

  it('sends HTTP-Referer = PUBLIC_SERVER_URL when GATEWAY_SITE_URL is unset, and one model per request', async () => {
    app.gateway.script(reply.success('Done.'))
    expect((await generate()).status).toBe(201)
    const [sent] = app.gateway.chatRequests
    expect(sent.headers['http-referer']).toBe(PUBLIC_SERVER_URL)
    expect(sent.body).not.toHaveProperty('models')
    expect(sent.body).not.toHaveProperty('route')
  })

  it('answers manual mode naming each model and its reason when all fail', async () => {
    app.gateway.script(reply.error(404, { model: GATEWAY_MODEL }), reply.error(503, { model: PAID_FALLBACK }), reply.dailyCap({ model: FREE_FALLBACK }))
    const before = (await app.payload.count({ collection: 'ai-drafts' })).totalDocs
    const response = await generate()
    expect(response.status).toBe(200)
    const { message } = (await response.json()) as { message: string }
    expect(message).toContain('all AI models failed')
    expect(message).toContain(`${GATEWAY_MODEL}: no endpoint serves this model`)
    expect(message).toContain(`${PAID_FALLBACK}: the model is unavailable`)
    expect(message).toContain(`${FREE_FALLBACK}: daily free-model limit reached`)
    expect(message).not.toContain(GATEWAY_KEY)
    expect((await app.payload.count({ collection: 'ai-drafts' })).totalDocs).toBe(before)
  })

  it('uses the fallback list of Site settings → AI instead of GATEWAY_FALLBACK_MODELS when one is set', async () => {
    await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { fallbackModels: 'mistralai/mistral-7b-instruct:free' } } })
    try {
      app.gateway.script(reply.error(404, { model: GATEWAY_MODEL }))
      const response = await generate('admin')
      expect(response.status).toBe(201)
      expect(askedModels()).toEqual([GATEWAY_MODEL, 'mistralai/mistral-7b-instruct:free'])
      // Site settings are public, the model chain is not.
      const publicSettings = (await (await callJson(app.baseUrl, 'GET', '/api/globals/site-settings')).json()) as { ai?: Record<string, unknown> }
      expect(publicSettings.ai).not.toHaveProperty('fallbackModels')
      const staffSettings = (await (await callJson(app.baseUrl, 'GET', '/api/globals/site-settings', undefined, { token: app.tokens.editor })).json()) as {
        ai?: Record<string, unknown>
      }
      expect(staffSettings.ai?.fallbackModels).toBe('mistralai/mistral-7b-instruct:free')
    } finally {
      await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { fallbackModels: '' } } })
    }
  })

  it('refuses a Site settings fallback list that is not model ids, naming the entry', async () => {
    const response = await callJson(app.baseUrl, 'POST', '/api/globals/site-settings', { ai: { fallbackModels: 'openai/gpt-4o, not a model' } }, { token: app.tokens.admin })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('not a model')
  })
})

describe('POST /api/ai/gateway-test (Site settings → AI → "Test the gateway")', () => {
  it('is for admins only: 401 anonymous, 403 editors and viewers, without a gateway call', async () => {
    expect((await testGateway('anonymous')).status).toBe(401)
    expect((await testGateway('editor')).status).toBe(403)
    expect((await testGateway('viewer')).status).toBe(403)
    expect(app.gateway.requests).toHaveLength(0)
  })

  it('says the key is valid and marks each model of the chain found, free or unknown, never echoing the key', async () => {
    const response = await testGateway('admin')
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(GATEWAY_KEY)
    expect(text).not.toContain(GATEWAY_KEY.slice(0, 12))
    expect(JSON.parse(text)).toMatchObject({
      enabled: true,
      key: { valid: true, isFreeTier: true },
      models: [
        { id: GATEWAY_MODEL, availability: 'found' },
        { id: PAID_FALLBACK, availability: 'unknown' },
        { id: FREE_FALLBACK, availability: 'free' },
      ],
    })
    expect(app.gateway.requests.map((request) => request.path).sort()).toEqual(['/api/v1/key', '/api/v1/models'])
    expect(app.gateway.chatRequests).toHaveLength(0)
  })

  it('reports a key the gateway refuses as not valid', async () => {
    app.gateway.script(reply.error(401, { path: '/api/v1/key' }), reply.error(401, { path: '/api/v1/models' }))
    const body = (await (await testGateway('admin')).json()) as { key: { valid: boolean; problem: string }; models: Array<{ availability: string }> }
    expect(body.key).toEqual({ valid: false, problem: 'invalid API key' })
    expect(body.models.every((model) => model.availability === 'unknown')).toBe(true)
  })
})
