import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { evaluateRules } from '@/alerts'
import { richText } from '@/seed/richText'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'
import { startFakeGateway, type FakeGateway } from '../../fakes/gateway'
import { type Role, signedInRoles } from '../../helpers/accounts'
import { callJson, configureCities, GATEWAY_KEY, startAiApp } from './app'

// Rules stay rules: alerts, access control and validation are plain code that never asks the
// model gateway, so they work the same when the gateway is gone.

let payload: Payload
let gateway: FakeGateway
let broker: DemoBroker
let baseUrl: string
let closeServer: () => Promise<void>
let tokens: Record<Role, string>
let layerId: number | string
let draftId: number | string

type Feature = { properties: { alert?: { level: string; message: string } } }

async function checkAlerts() {
  const response = await callJson(baseUrl, 'GET', `/api/layers/${layerId}/features`)
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
  expect((await callJson(baseUrl, 'POST', '/api/posts', post, { token: tokens.viewer })).status).toBe(403)
  expect((await callJson(baseUrl, 'GET', `/api/ai-drafts/${draftId}`)).status).toBe(403)
  expect((await callJson(baseUrl, 'PATCH', `/api/ai-drafts/${draftId}`, { status: 'approved' }, { token: tokens.viewer })).status).toBe(403)
  expect((await callJson(baseUrl, 'DELETE', `/api/ai-drafts/${draftId}`, undefined, { token: tokens.editor })).status).toBe(403)
  expect((await callJson(baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'x' } })).status).toBe(401)
}

async function checkValidation() {
  const badColour = { name: 'Bad colour', entityType: 'AirQualityObserved', attributes: ['no2'], style: { colour: 'red' } }
  const response = await callJson(baseUrl, 'POST', '/api/map-layers', badColour, { token: tokens.editor })
  expect(response.status).toBe(400)
  expect(await response.text()).toMatch(/hex colour/)
  const skipReview = await callJson(baseUrl, 'PATCH', `/api/ai-drafts/${draftId}`, { status: 'applied' }, { token: tokens.editor })
  expect(skipReview.status).toBe(400)
}

beforeAll(async () => {
  gateway = await startFakeGateway({ validKeys: [GATEWAY_KEY] })
  broker = await startDemoBroker({ port: 0, flavor: 'orion-ld' })
  const app = await startAiApp({ enableAi: 'true', gatewayUrl: gateway.url, brokerUrl: broker.url })
  payload = app.payload
  baseUrl = app.baseUrl
  closeServer = app.close
  await configureCities(payload)
  ;({ tokens } = await signedInRoles(payload, baseUrl, `rules${Date.now()}`))
  const layer = await payload.create({
    collection: 'map-layers',
    data: {
      name: 'Air quality (rules test)',
      entityType: 'AirQualityObserved',
      attributes: ['no2'],
      alertRules: [{ attribute: 'no2', operator: 'gt', value: '0', level: 'critical', message: 'NO2 at {value}' }],
      refreshSeconds: 60,
      maxFeatures: 1000,
    },
  })
  layerId = layer.id
  const draft = await payload.create({
    collection: 'ai-drafts',
    data: { task: 'documentation', draft: 'A draft', status: 'pending_review', requiresApproval: true },
  })
  draftId = draft.id
})

afterAll(async () => {
  await closeServer?.()
  await broker?.close()
})

describe('with the gateway up', () => {
  it('evaluates alerts, enforces access and validates data without a single gateway request', async () => {
    await checkAlerts()
    await checkAccessControl()
    await checkValidation()
    expect(gateway.requests).toHaveLength(0)
  })
})

describe('with the gateway unreachable', () => {
  beforeAll(async () => {
    await gateway.close()
  })

  it('still evaluates alerts, enforces access and validates data', async () => {
    await checkAlerts()
    await checkAccessControl()
    await checkValidation()
  })

  it('turns generation into manual mode, and still takes citizens’ questions', async () => {
    const generated = await callJson(baseUrl, 'POST', '/api/ai/generate', { task: 'documentation', input: { topic: 'Map layers' } }, { token: tokens.editor })
    expect(generated.status).toBe(200)
    expect(await generated.json()).toEqual({ mode: 'manual', content: '', message: expect.stringMatching(/AI generation failed .*enter the content manually/) })

    const asked = await callJson(baseUrl, 'POST', '/api/questions/ask', { question: 'Is the air clean today?' }, { ip: '198.51.100.30' })
    expect(asked.status).toBe(201)
    const { question } = (await asked.json()) as { question: { id: number } }
    expect((await payload.count({ collection: 'ai-drafts', where: { 'target.docId': { equals: String(question.id) } } })).totalDocs).toBe(0)
  })
})
