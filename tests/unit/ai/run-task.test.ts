import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { GatewayClient, runAiTask, TaskInputError } from '@/ai/server'

import { reply, startFakeGateway, type FakeGateway } from '../../fakes/gateway'

let gateway: FakeGateway
let client: GatewayClient
beforeAll(async () => {
  gateway = await startFakeGateway()
  client = new GatewayClient({ url: gateway.url, apiKey: 'sk-or-v1-run', model: 'a/one' })
})
afterAll(() => gateway.close())
afterEach(() => gateway.reset())

const sampleInput = { entityType: 'ParkingSpot', attributes: ['status'], count: 1 }
const entity = {
  id: 'urn:ngsi-ld:ParkingSpot:p1',
  type: 'ParkingSpot',
  status: { type: 'Property', value: 'free' },
  location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [4.83, 45.76] } },
}

describe('runAiTask', () => {
  it('builds the prompt with the task defaults and returns the parsed output', async () => {
    gateway.script(reply.success(JSON.stringify([entity])))
    const result = await runAiTask({ enabled: true, gateway: client }, 'sample-data', sampleInput)
    expect(result.mode).toBe('ai')
    if (result.mode !== 'ai') return
    expect(result.output).toEqual([entity])
    expect(JSON.parse(result.content)).toEqual([entity])
    expect(result.model).toBe('a/one')
    const body = gateway.requests[0].body as { max_tokens: number; messages: Array<{ content: string }> }
    expect(body.max_tokens).toBe(3000)
    expect(body.messages[0].content).toBe(result.prompt)
  })

  it('falls back to manual mode when the answer is unusable', async () => {
    gateway.script(reply.success(JSON.stringify([{ ...entity, type: 'Car' }])))
    const result = await runAiTask({ enabled: true, gateway: client }, 'sample-data', sampleInput)
    expect(result).toMatchObject({ mode: 'manual', content: '' })
    expect(result.message).toMatch(/could not be used .*type "Car"/)
  })

  it('is manual without a request when AI is disabled, and refuses bad input', async () => {
    const result = await runAiTask({ enabled: false, gateway: client }, 'search-keywords', { text: 'Trams' })
    expect(result.mode).toBe('manual')
    expect(gateway.requests).toHaveLength(0)
    await expect(runAiTask({ enabled: true, gateway: client }, 'search-keywords', { text: '' })).rejects.toBeInstanceOf(TaskInputError)
  })
})
