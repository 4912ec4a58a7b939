import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { evaluateRules } from '@/alerts'
import { richText } from '@/seed/richText'

import { type AiApp, callJson, createFiringAirLayer, startAiApp } from './app'

// Rules stay rules: alerts, access control and validation are plain code that never asks the
// model gateway, so they work the same when the gateway is gone.

let app: AiApp
let layerId: number | string
let draftId: number | string

type Feature = { properties: { alert?: { level: string; message: string } } }

async function checkAlerts() {
  const response = await callJson(app.baseUrl, 'GET', `/api/layers/${layerId}/features`)
  expect(response.status).toBe(200)
  const { features } = (await response.json()) as { features: Feature[] }
  expect(features.length).toBeGreaterThan(0)
  expect(features.some((feature) => feature.properties.alert?.level === 'critical')).toBe(true)
  expect(evaluateRules([{ attribute: 'no2', operator: 'gt', value: 40, level: 'warning', message: 'NO2 {value}' }], { no2: 55 })).toMatchObject({
    level: 'warning',
    message: 'NO2 55',
  })
}

async function checkAccessControl() {
  const post = { title: 'Not allowed', slug: `not-allowed-${Date.now()}`, content: richText('x') }
  expect((await callJson(app.baseUrl, 'POST', '/api/posts', post, { token: app.tokens.viewer })).status).toBe(403)
  expect((await callJson(app.baseUrl, 'GET', `/api/ai-drafts/${draftId}`)).status).toBe(403)
  expect((await callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${draftId}`, { status: 'approved' }, { token: app.tokens.viewer })).status).toBe(403)
  expect((await callJson(app.baseUrl, 'DELETE', `/api/ai-drafts/${draftId}`, undefined, { token: app.tokens.editor })).status).toBe(403)
  expect((await callJson(app.baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'x' } })).status).toBe(401)
}

async function checkValidation() {
  const badColour = { name: 'Bad colour', entityType: 'AirQualityObserved', attributes: ['no2'], style: { colour: 'red' } }
  const response = await callJson(app.baseUrl, 'POST', '/api/map-layers', badColour, { token: app.tokens.editor })
  expect(response.status).toBe(400)
  expect(await response.text()).toMatch(/hex colour/)
  const skipReview = await callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${draftId}`, { status: 'applied' }, { token: app.tokens.editor })
  expect(skipReview.status).toBe(400)
}

beforeAll(async () => {
  app = await startAiApp({ enableAi: 'true', cityData: true, roles: ['editor', 'viewer'] })
  layerId = (await createFiringAirLayer(app.payload, 'Air quality (rules test)')).id
  const draft = await app.payload.create({
    collection: 'ai-drafts',
    data: { task: 'documentation', draft: 'A draft', status: 'pending_review', requiresApproval: true },
  })
  draftId = draft.id
})

afterAll(() => app?.close())

describe('with the gateway up', () => {
  it('evaluates alerts, enforces access and validates data without a single gateway request', async () => {
    await checkAlerts()
    await checkAccessControl()
    await checkValidation()
    expect(app.gateway.requests).toHaveLength(0)
  })
})

describe('with the gateway unreachable', () => {
  beforeAll(async () => {
    await app.gateway.close()
  })

  it('still evaluates alerts, enforces access and validates data', async () => {
    await checkAlerts()
    await checkAccessControl()
    await checkValidation()
  })

  it('turns generation into manual mode, and still takes citizens’ questions', async () => {
    const generated = await callJson(app.baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'Map layers' } }, { token: app.tokens.editor })
    expect(generated.status).toBe(200)
    expect(await generated.json()).toEqual({ mode: 'manual', content: '', message: expect.stringMatching(/AI generation failed .*enter the content manually/) })

    const asked = await callJson(app.baseUrl, 'POST', '/api/questions/ask', { question: 'Is the air clean today?' }, { ip: '198.51.100.30' })
    expect(asked.status).toBe(201)
    const { question } = (await asked.json()) as { question: { id: number } }
    expect((await app.payload.count({ collection: 'ai-drafts', where: { 'target.docId': { equals: String(question.id) } } })).totalDocs).toBe(0)
  })
})
